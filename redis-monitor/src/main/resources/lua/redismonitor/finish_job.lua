-- Ends a job that was handled: deletes its failure count and the kept answers of the values answered,
-- takes the entries read off its waiting list, and deletes the job key when it holds one of the values
-- answered and nothing newer waits. A job key written again meanwhile (a newer request of the same scope)
-- stays, with its waiting list, to be answered next (docs/redis-monitor.md "Requests of the same scope").
--
-- The entries read are usually still the first ones, and are trimmed off at once. When they are not, the
-- monitor lost the job's lock while it handled the job, and another monitor has ended the job since and
-- newer requests were written: each entry read is then taken off by its value (the first entry equal to
-- it), so that only what this monitor answered is taken off.
--
-- KEYS[1] the job key   KEYS[2] lock:<job key>:failures   KEYS[3] the job's waiting list
-- KEYS[4] jobs:<job key>:answers, the answers not yet sent, one field a value
-- ARGV[1] how many entries were read from the waiting list
-- ARGV[2 .. ARGV[1] + 1] those entries, in the order read
-- ARGV[ARGV[1] + 2 ..] the values answered
-- Returns 1 when the job key was deleted, 0 when it stays (or is gone).

local function still_first(read)
  local first = redis.call('LRANGE', KEYS[3], 0, read - 1)
  if #first ~= read then
    return false
  end
  for i = 1, read do
    if first[i] ~= ARGV[i + 1] then
      return false
    end
  end
  return true
end

local read = tonumber(ARGV[1])
redis.call('DEL', KEYS[2])
if read > 0 then
  if still_first(read) then
    redis.call('LTRIM', KEYS[3], read, -1)
  else
    for i = 2, read + 1 do
      redis.call('LREM', KEYS[3], 1, ARGV[i])
    end
  end
end
if #ARGV > read + 1 then
  redis.call('HDEL', KEYS[4], unpack(ARGV, read + 2))
end
if redis.call('LLEN', KEYS[3]) > 0 then
  return 0
end
local current = redis.call('GET', KEYS[1])
for i = read + 2, #ARGV do
  if current == ARGV[i] then
    return redis.call('DEL', KEYS[1])
  end
end
return 0
