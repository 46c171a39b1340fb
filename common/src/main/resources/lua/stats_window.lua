-- Adds counts to a rolling-window counter stored as a HASH of time buckets (field = bucket start in
-- epoch seconds, value = count), removes buckets that left the window and refreshes the expiry.
-- The HASH is kept apart from the window's original name, where the Python services keep a sorted
-- set; a HASH found at that name was written by an earlier build of ours and is folded in and deleted,
-- so that a Python service does not meet it (docs/operations.md "Mixed Python and Java clusters").
--
-- Each write is numbered by its writer, in the order it sends them, and the HASH keeps the number of
-- the writer's last write it added (field w:<node id>, value "<number> <epoch second>"): a write sent
-- again because Redis answered it too late adds nothing if it had run after all. A writer's field
-- leaves with the buckets of its time.
--
-- KEYS[1] the HASH of buckets   KEYS[2] the window's original name
-- ARGV[1] oldest bucket start to keep   ARGV[2] expiry seconds
-- ARGV[3] the writer's node id   ARGV[4] this write's number   ARGV[5] now, in epoch seconds
-- ARGV[6], ARGV[7], ... pairs of bucket start and count
-- Returns 1, or 0 when KEYS[1] holds another type (written by hand): nothing changes.

local key, keep_from = KEYS[1], tonumber(ARGV[1])
local kind = redis.call('TYPE', key)['ok']
if kind ~= 'hash' and kind ~= 'none' then
  return 0
end
if redis.call('TYPE', KEYS[2])['ok'] == 'hash' then
  local earlier = redis.call('HGETALL', KEYS[2])
  for i = 1, #earlier, 2 do
    if tonumber(earlier[i]) and string.match(earlier[i + 1], '^%d+$') then
      redis.call('HINCRBY', key, earlier[i], earlier[i + 1])
    end
  end
  redis.call('DEL', KEYS[2])
end
local writer, number = 'w:' .. ARGV[3], tonumber(ARGV[4])
local last = tonumber(string.match(redis.call('HGET', key, writer) or '', '^(%d+) ') or -1)
if number > last then
  local added = false
  for i = 6, #ARGV, 2 do
    if tonumber(ARGV[i]) >= keep_from then
      redis.call('HINCRBY', key, ARGV[i], ARGV[i + 1])
      added = true
    end
  end
  if added then -- a write that adds nothing needs no number, and creates no key
    redis.call('HSET', key, writer, ARGV[4] .. ' ' .. ARGV[5])
  end
end
local fields = redis.call('HGETALL', key)
for i = 1, #fields, 2 do
  local since = tonumber(fields[i]) or tonumber(string.match(fields[i + 1], ' (%d+)$'))
  if (since or 0) < keep_from then
    redis.call('HDEL', key, fields[i])
  end
end
if redis.call('EXISTS', key) == 1 then
  redis.call('EXPIRE', key, ARGV[2])
end
return 1
