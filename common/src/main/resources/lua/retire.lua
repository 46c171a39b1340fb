-- Forgets the accounting of a crawl whose completion is being announced: the atomic gate that lets
-- exactly one of any number of Redis monitors announce it. Does nothing when the crawl is no longer
-- in crawls:active (another monitor retired it), when it was active at or after the quiet bound (it is not
-- quiet), when it has pending requests again, or when its timeout key holds a time the server clock
-- has reached: crawlers' hand-outs drop an expired crawl's requests (lib/member expired), which leaves
-- it with nothing pending, and it is the expire job's to purge and announce as expired
-- (docs/redis-monitor.md "complete"). A retired crawl whose expires is still ahead keeps its timeout key, so
-- that the expire job announces it expired at that time, as the original announces every crawl with an
-- expires, and purges what later seeds of it queued by then; its accounting is left saying nothing is
-- pending, so that this purge reads no queue, and goes ARGV[8] seconds after the expiry. The announcement
-- is filed in crawls:completed ([spiderid, appid, crawlid, pages], and the crawl's start in epoch seconds
-- when its accounting recorded one), where it waits until a monitor's Kafka takes it, across monitor
-- restarts. A quiet crawl listed in its spider's blacklist was stopped
-- or expired (by a Python Redis monitor, whose stop leaves our accounting to be drained by hand-outs):
-- it is forgotten as the stop job forgets one (lib/forget), not announced complete. Needs lib/clock,
-- lib/errors and lib/forget. A crawl whose accounting cannot answer
-- for it (crawls:foreign) is retired only with ARGV[6] "1", once its caller has read the queues and
-- leases and found nothing of it: the pending count is not looked at, and the crawl leaves
-- crawls:foreign and crawls:drained_seen.
-- A quiet crawl that still has requests pending (no crawler takes them: crawlers scaled to 0, or its
-- domains blacklisted or paused) is made active again at the server clock's time, so that the
-- completion checks of every monitor pass it over for another quiet period instead of reading its
-- accounting and queues again at each check (docs/redis-monitor.md "complete"). Whatever drains it
-- later touches crawls:active itself (lib/accounting), so this delays no announcement.
--
-- KEYS[1] crawl:<spiderid>:<appid>:<crawlid>   KEYS[2] crawls:<spiderid>:<appid>   KEYS[3] crawls:active
-- KEYS[4] crawls:completed                     KEYS[5] timeout:<spiderid>:<appid>:<crawlid>
-- ARGV[1] crawlid   ARGV[2] <spiderid>:<appid>:<crawlid>   ARGV[3] quiet bound, epoch milliseconds
-- ARGV[4] spiderid  ARGV[5] appid   ARGV[6] "1" when the queues were read and hold nothing of the crawl
-- KEYS[6] crawls:foreign   KEYS[7] crawls:drained_seen   KEYS[8] <spiderid>:blacklist
-- ARGV[7] <appid>||<crawlid>   ARGV[8] seconds the accounting hash of a forgotten crawl is kept
-- Returns the crawl's published pages when this call retired it, -2 when it made the busy crawl active
-- again, -3 when it forgot the blacklisted crawl, -1 when it left it as it was.

local last_active = redis.call('ZSCORE', KEYS[3], ARGV[2])
if not last_active or tonumber(last_active) >= tonumber(ARGV[3]) then
  return -1
end
if redis.call('SISMEMBER', KEYS[8], ARGV[7]) == 1 then
  forget_crawl({accounting = KEYS[1], app_crawls = KEYS[2], active = KEYS[3], foreign = KEYS[6], drained = KEYS[7]},
    ARGV[1], ARGV[2], ARGV[8])
  return -3
end
local clock = server_clock() -- read only for a crawl that is quiet
if ARGV[6] ~= '1' then
  if redis.call('SISMEMBER', KEYS[6], ARGV[2]) == 1 then
    return -1
  end
  if (tonumber(redis.call('HGET', KEYS[1], 'pending') or '0') or 0) > 0 then
    redis.call('ZADD', KEYS[3], clock.millis, ARGV[2])
    return -2
  end
end
-- pcall: a timeout key of another type (hand-edited) holds no expiry, and fails nothing
local expires = tonumber(unless_refused(redis.pcall('GET', KEYS[5])) or '')
if expires ~= nil and expires <= clock.seconds then
  return -1
end
-- pcall: an accounting hash of another type (hand-edited; the crawl is then in crawls:foreign, and its queues were read)
-- counted no page and no start that can be read
local recorded = unless_refused(redis.pcall('HMGET', KEYS[1], 'pages', 'started')) or {}
local pages = tonumber(recorded[1] or '') or 0
local started = tonumber(recorded[2] or '')
redis.call('DEL', KEYS[1])
if expires == nil then
  redis.call('DEL', KEYS[5])
else
  -- later seeds of the crawl count on this as on a new crawl's accounting (lib/accounting)
  redis.call('HSET', KEYS[1], 'pending', 0)
  local gone = math.floor(expires) + tonumber(ARGV[8])
  if gone < 1e14 then -- an expires too far to write out whole leaves it without a time to live, as its timeout key
    redis.call('EXPIREAT', KEYS[1], string.format('%.0f', gone))
  end
end
redis.pcall('SREM', KEYS[2], ARGV[1]) -- pcall: under the appid "queue" KEYS[2] may be a queue (lib/accounting)
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('SREM', KEYS[6], ARGV[2])
redis.call('HDEL', KEYS[7], ARGV[2])
local announced = {ARGV[4], ARGV[5], ARGV[1], pages}
if started and started > 0 then
  announced[5] = math.floor(started / 1000)
end
redis.call('RPUSH', KEYS[4], cjson.encode(announced))
return pages
