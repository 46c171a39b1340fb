-- The hand-out before a node's first request of a domain whose robots.txt gives a Crawl-delay, as the throttle's window
-- holds it, and the window kept at least as long as the delay asks (docs/throttling.md, "Crawl-delay"): a hand-out
-- keeps the window for two windows of the spec it was made under, and the node's first hand-out of a domain is made
-- before its file is read, under a spec without the delay. A window of 1 s and a Crawl-delay of 30 s would lose this
-- request's entry 2 s on, and another node's first request of the domain, 5 s on, would find none before its own.
--
-- KEYS[1] <throttlekey>:throttle_window
-- ARGV[1] the latest time to look at, epoch seconds (the request's hand-out, a microsecond before it)
-- ARGV[2] the milliseconds the window must be kept from now, at least
-- Returns the newest entry's time at or before ARGV[1] ("<s>.<us>" as Redis keeps the score), nil when there is none.
-- A window without a time to live (written by hand) is left so.

local newest = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[1], '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
local left = redis.call('PTTL', KEYS[1])
if left >= 0 and left < tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return newest[2]
