-- Hands a parked answer out once: reads and deletes it in one step, so that callers polling for
-- the same uuid at the same moment cannot both read it before either deletes it (docs/rest.md).
-- GETDEL would do, but needs Redis 6.2 (docs/operations.md).
--
-- KEYS[1] rest:poll:<uuid>
-- Returns the answer's text, or false when nothing is parked.

local answer = redis.call('GET', KEYS[1])
if answer then
  redis.call('DEL', KEYS[1])
end
return answer
