-- Writes a job for the Redis monitors: the job key with the request's value, as the original's
-- Kafka monitor writes it (an overwrite: a Python Redis monitor answers the latest value), and the
-- value appended to the job's waiting list, so that a Java Redis monitor answers every request
-- that came before it handled the job (docs/redis-monitor.md "Requests of the same scope").
--
-- A waiting list whose job key is gone was left by a monitor that handled the key without reading
-- the list (a Python Redis monitor): its values were answered or collapsed already, so it is
-- dropped rather than answered again.
--
-- A list that holds ARGV[3] values already takes no more: the request is refused with an error, which
-- the Kafka monitor answers to its sender, rather than an older request dropped without a word. A value
-- the full list holds already (a batch written again after a failure) is not refused: it waits already.
--
-- KEYS[1] the job key   KEYS[2] its waiting list
-- ARGV[1] the value     ARGV[2] the list's expiry in seconds   ARGV[3] the most values kept

if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[2])
end
local waiting = redis.call('LLEN', KEYS[2])
if waiting >= tonumber(ARGV[3]) then
  for _, value in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
    if value == ARGV[1] then
      return 1
    end
  end
  return redis.error_reply('ERR ' .. waiting .. ' requests with the job key ' .. KEYS[1]
      .. ' wait for their answers already; ask again once they are answered')
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[2])
return 1
