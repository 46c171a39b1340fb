-- Adds events to a rolling-window counter in the Python original's form (docs/operations.md "Mixed
-- Python and Java clusters"): a ZSET of one member per event, scored by the event's epoch second,
-- which the original's Redis monitor counts with ZCARD. Members that left the window are removed
-- (also when no event is added) and the key expires once nothing is written for a window.
--
-- KEYS[1] the counter key   ARGV[1] oldest score to keep   ARGV[2] expiry seconds
-- ARGV[3] member prefix (the writer's node id)   ARGV[4] sequence number of the first event
-- ARGV[5], ARGV[6], ... pairs of epoch second and events
-- Returns 1, or 0 when the key holds another type (a window of time buckets): nothing changes.

local key, keep_from = KEYS[1], tonumber(ARGV[1])
local kind = redis.call('TYPE', key)['ok']
if kind ~= 'zset' and kind ~= 'none' then
  return 0
end
local sequence = tonumber(ARGV[4])
local batch = {}
local function write()
  if #batch > 0 then
    redis.call('ZADD', key, unpack(batch))
    batch = {}
  end
end
for i = 5, #ARGV, 2 do
  local second = ARGV[i]
  if tonumber(second) >= keep_from then
    for _ = 1, tonumber(ARGV[i + 1]) do
      batch[#batch + 1] = second
      batch[#batch + 1] = ARGV[3] .. ':' .. string.format('%d', sequence)
      sequence = sequence + 1
      if #batch >= 2000 then
        write()
      end
    end
  else
    -- numbered all the same, so that a write sent again names the events it adds as it did the first time
    sequence = sequence + tonumber(ARGV[i + 1])
  end
end
write()
redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. ARGV[1])
if redis.call('EXISTS', key) == 1 then
  redis.call('EXPIRE', key, ARGV[2])
end
return 1
