-- Adds counts to a rolling-window counter stored as a HASH of time buckets (field = bucket start in
-- epoch seconds, value = count), removes buckets that left the window and refreshes the expiry.
--
-- KEYS[1] the counter key   ARGV[1] oldest bucket start to keep   ARGV[2] expiry seconds
-- ARGV[3], ARGV[4], ... pairs of bucket start and count
-- Returns 1, or 0 when the key holds another type (a Python component's sorted set): nothing changes.

local key, keep_from = KEYS[1], tonumber(ARGV[1])
local kind = redis.call('TYPE', key)['ok']
if kind ~= 'hash' and kind ~= 'none' then
  return 0
end
for i = 3, #ARGV, 2 do
  if tonumber(ARGV[i]) >= keep_from then
    redis.call('HINCRBY', key, ARGV[i], ARGV[i + 1])
  end
end
for _, bucket in ipairs(redis.call('HKEYS', key)) do
  if (tonumber(bucket) or 0) < keep_from then
    redis.call('HDEL', key, bucket)
  end
end
if redis.call('EXISTS', key) == 1 then
  redis.call('EXPIRE', key, ARGV[2])
end
return 1
