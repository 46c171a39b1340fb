-- Notes that a completion check read the queues and leases of a foreign crawl and found nothing of it
-- (docs/redis-monitor.md "complete"). A Python crawler holds the request it fetches in no key, so one look that finds
-- nothing proves nothing, nor do two when the crawler was fetching at both. A page it fetched in between files its new
-- links in the crawl's dupefilter, however soon a crawler takes them from the queue: the crawl may be retired only when
-- an earlier look found nothing too and the dupefilter holds as many requests as it held then. Otherwise the count is
-- noted, and the crawl is made active at ARGV[2], to be looked at again a quiet period after that. A dupefilter Redis
-- refuses (a key of another type, written by hand) counts as -1. Needs lib/errors.
--
-- KEYS[1] crawls:drained_seen   KEYS[2] crawls:active   KEYS[3] <spiderid>:dupefilter:<crawlid>
-- ARGV[1] <spiderid>:<appid>:<crawlid>   ARGV[2] when the crawl is to be active, epoch milliseconds
-- Returns 1 when the crawl may be retired, 0 when it is to be looked at again.

local seen = tostring(unless_refused(redis.pcall('SCARD', KEYS[3])) or -1)
if redis.call('HGET', KEYS[1], ARGV[1]) == seen then
  return 1
end
redis.call('HSET', KEYS[1], ARGV[1], seen)
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 0
