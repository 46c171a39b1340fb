-- Counts a hand-out in its throttle's window from the moment its request goes out instead of from its hand-out, for a
-- request that waited for its host's robots.txt (docs/throttling.md, "Where the limit comes from"): a window without
-- spacing lets a burst of hand-outs go at its start, and the requests of the domain's first burst, each waiting for
-- its node's read of the file, reached the server next to the next window's burst (three nodes at 3 a 2 s window: six
-- requests within 1.1 s). Moved to now, the entry holds the next burst back until a window after this fetch. Should the
-- window, counted so, hold more than its limit (hand-outs made meanwhile went out at once), the entry is removed and the
-- request is to be put back, to wait for a slot as any other. Needs lib/clock and lib/window.
--
-- KEYS[1] <throttlekey>:throttle_window
-- ARGV[1] the hand-out's time "<s>.<us>", the score of its entry   ARGV[2] window seconds   ARGV[3] limit
-- Returns 1 when the request may go now, 0 when it is to be put back.

local clock = server_clock()
local window, limit = tonumber(ARGV[2]), tonumber(ARGV[3])
local entry = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1], 'LIMIT', 0, 1)[1]
if entry then
  redis.call('ZADD', KEYS[1], clock.text, entry)
else
  -- trimmed, or the key gone with its time to live: the request is counted anew
  entry = add_window_entry(KEYS[1], clock)
end
if redis.call('ZCOUNT', KEYS[1], string.format('(%.6f', clock.seconds - window), '+inf') > limit then
  redis.call('ZREM', KEYS[1], entry)
  return 0
end
redis.call('EXPIRE', KEYS[1], window_ttl(window))
return 1
