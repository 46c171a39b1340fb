-- Adds a hand-out to its throttle's window at the clock's time (lib/clock), under a member of its own even when another
-- hand-out of the key holds that microsecond (two decisions of one call for one domain): extra digits keep the member a
-- float. Returns the member.
local function add_window_entry(window_key, clock)
  local entry, suffix = clock.text, 0
  while redis.call('ZADD', window_key, 'NX', clock.text, entry) == 0 do
    suffix = suffix + 1
    entry = clock.text .. suffix
  end
  return entry
end

-- The seconds a hand-out keeps its throttle keys: two windows (docs/throttling.md), so that a window lengthened live
-- does not outlast the keys the shorter one wrote and forget hand-outs it still counts.
local function window_ttl(window)
  return math.max(1, math.floor(window * 2))
end
