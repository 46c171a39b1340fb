-- Forgets a crawl that was stopped or expired, once its purge was counted for the answer
-- (docs/redis-monitor.md "stop"): takes it out of its app's crawls, crawls:active (no completion
-- announcement follows), crawls:foreign and crawls:drained at once, so that neither an app's info nor
-- the completion check reads it again, and leaves its accounting hash to expire. That hash then says
-- what is true, nothing queued or leased (the purge took every domain field to 0), and answers an info
-- on the crawl, or a second stop of it, without reading the spider's queues while callers may still
-- ask; nothing writes it again: the crawl is blacklisted and purged, so no request of it is queued or
-- leased, and an acknowledgement of a purged lease finds no lease and counts nothing. The hash of a
-- crawl in crawls:foreign cannot answer for it (a Python service moved its requests behind the
-- counters' back) and is deleted.
--
-- KEYS[1] crawl:<spiderid>:<appid>:<crawlid>   KEYS[2] crawls:<spiderid>:<appid>   KEYS[3] crawls:active
-- KEYS[4] crawls:foreign                       KEYS[5] crawls:drained
-- ARGV[1] crawlid   ARGV[2] <spiderid>:<appid>:<crawlid>   ARGV[3] seconds the accounting hash is kept
-- Returns 1 when the accounting hash was left to expire, 0 when it was deleted or there was none.

local kept = 0
if redis.call('SREM', KEYS[4], ARGV[2]) == 1 then
  redis.call('DEL', KEYS[1])
else
  kept = redis.call('EXPIRE', KEYS[1], ARGV[3])
end
redis.pcall('SREM', KEYS[2], ARGV[1]) -- pcall: under the appid "queue" KEYS[2] may be a queue (lib/accounting)
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('SREM', KEYS[5], ARGV[2])
return kept
