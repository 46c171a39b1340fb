-- Counts a server error (5xx, 429) that a host's robots.txt, never read, answered a crawler node with, in the row that
-- every node of the cluster counts together (docs/throttling.md): the node whose error is the third of the row gives up
-- waiting for the file, whichever node had the first two, and so does one whose error comes two retry times or more
-- after the row's first. Needs lib/clock.
--
-- KEYS[1] robots:server_errors:<origin>   ARGV[1] ROBOTSTXT_RETRY_SECONDS in milliseconds
-- ARGV[2] the errors in a row that give up (3)
-- Returns {errors in the row, verdict}: verdict 0 the host's pages wait, 1 this error gives up, 2 the row gave up before.

local key, retry_ms, give_up_at = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])
local now = server_clock().millis
local first = tonumber(redis.call('HGET', key, 'first'))
if first == nil then
  first = now
  redis.call('HSET', key, 'first', first)
end
local errors = redis.call('HINCRBY', key, 'errors', 1)
-- an error more than give_up_at retry times after the one before starts a row of its own: the host's pages were not
-- asked for between them
redis.call('PEXPIRE', key, retry_ms * give_up_at)
if redis.call('HEXISTS', key, 'given_up') == 1 then
  return {errors, 2}
end
if errors >= give_up_at or now - first >= retry_ms * (give_up_at - 1) then
  redis.call('HSET', key, 'given_up', '1')
  return {errors, 1}
end
return {errors, 0}
