-- Forgets a crawl that was stopped or expired, once its purge was counted for the answer
-- (docs/redis-monitor.md "stop"); see lib/forget, which it needs with lib/errors.
--
-- KEYS[1] crawl:<spiderid>:<appid>:<crawlid>   KEYS[2] crawls:<spiderid>:<appid>   KEYS[3] crawls:active
-- KEYS[4] crawls:foreign                       KEYS[5] crawls:drained_seen   KEYS[6] purged:<spiderid>:<appid>:<crawlid>
-- ARGV[1] crawlid   ARGV[2] <spiderid>:<appid>:<crawlid>   ARGV[3] seconds the accounting hash is kept
-- Returns {kept, dropped, purged}: kept 1 when the accounting hash was left to expire, 0 when it was deleted or
-- there was none; dropped, the requests crawlers dropped since the crawl was blacklisted; purged, those the
-- purges removed (lib/forget).

local kept, dropped, purged = forget_crawl({accounting = KEYS[1], app_crawls = KEYS[2], active = KEYS[3], foreign = KEYS[4],
  drained = KEYS[5], purged = KEYS[6]}, ARGV[1], ARGV[2], ARGV[3])
return {kept, dropped, purged}
