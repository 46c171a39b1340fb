-- Ends a job that was handled: deletes its failure count and the kept answers of the values answered,
-- takes the values answered off the front of its waiting list, and deletes the job key when it holds
-- one of the values answered and nothing newer waits. A job key written again meanwhile (a newer request of the same scope)
-- stays, with its waiting list, to be answered next (docs/redis-monitor.md "Requests of the same scope").
--
-- KEYS[1] the job key   KEYS[2] lock:<job key>:failures   KEYS[3] the job's waiting list
-- KEYS[4] jobs:<job key>:answers, the answers not yet sent, one field a value
-- ARGV[1] how many values were read from the front of the waiting list
-- ARGV[2..] the values answered
-- Returns 1 when the job key was deleted, 0 when it stays (or is gone).

redis.call('DEL', KEYS[2])
if #ARGV > 1 then
  redis.call('HDEL', KEYS[4], unpack(ARGV, 2))
end
if tonumber(ARGV[1]) > 0 then
  redis.call('LTRIM', KEYS[3], ARGV[1], -1)
end
if redis.call('LLEN', KEYS[3]) > 0 then
  return 0
end
local current = redis.call('GET', KEYS[1])
for i = 2, #ARGV do
  if current == ARGV[i] then
    return redis.call('DEL', KEYS[1])
  end
end
return 0
