-- Forgets a crawl that was stopped or expired (docs/redis-monitor.md "stop"): takes it out of its app's
-- crawls, crawls:active (no completion announcement follows), crawls:foreign and crawls:drained_seen at once,
-- so that neither an app's info nor the completion check reads it again, and leaves its accounting hash
-- to expire after ttl seconds. That hash then says what is true, nothing queued or leased (the purge took
-- every domain field to 0), and answers an info on the crawl, or a second stop of it, without reading
-- the spider's queues while callers may still ask; nothing writes it again: the crawl is blacklisted and
-- purged, so no request of it is queued or leased, and an acknowledgement of a purged lease finds no
-- lease and counts nothing. The hash of a crawl in crawls:foreign cannot answer for it (a Python service
-- moved its requests behind the counters' back) and is deleted, as is a key of another type at its name.
-- keys: accounting (crawl:<spiderid>:<appid>:<crawlid>), app_crawls (crawls:<spiderid>:<appid>), active,
-- foreign, drained (crawls:active, crawls:foreign, crawls:drained_seen), purged (purged:<spiderid>:<appid>:<crawlid>, or
-- none);
-- name: <spiderid>:<appid>:<crawlid>.
-- Returns 1 when the accounting hash was left to expire, 0 when it was deleted or there was none; the
-- requests crawlers' hand-outs dropped since the crawl was blacklisted (its "dropped" field, lib/accounting);
-- and those the purges removed (purge.lua): both taken, so that a second stop does not count them again.
-- Needs lib/errors.
local function forget_crawl(keys, crawlid, name, ttl)
  local purged = 0
  if keys.purged then -- none when a completion check forgets a crawl a Python Redis monitor stopped
    purged = tonumber(unless_refused(redis.pcall('GET', keys.purged)) or '0') or 0
    redis.call('DEL', keys.purged)
  end
  local kept = 0
  local dropped = unless_refused(redis.pcall('HGET', keys.accounting, 'dropped'))
  -- a hash Redis refuses (a key of another type at its name, written by hand) answers for nothing either
  local refused = dropped == nil
  dropped = tonumber(dropped or '0') or 0
  if redis.call('SREM', keys.foreign, name) == 1 or refused then
    redis.call('DEL', keys.accounting)
  else
    redis.call('HDEL', keys.accounting, 'dropped')
    kept = redis.call('EXPIRE', keys.accounting, ttl)
  end
  redis.pcall('SREM', keys.app_crawls, crawlid) -- pcall: under the appid "queue" it may be a queue (lib/accounting)
  redis.call('ZREM', keys.active, name)
  redis.call('HDEL', keys.drained, name)
  return kept, dropped, purged
end
