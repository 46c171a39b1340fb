-- Crawl accounting (docs/architecture.md): crawl:<spiderid>:<appid>:<crawlid> is a HASH of
-- "<domain>|<priority>" -> requests queued or leased, "pending" -> their total, "pages" -> results
-- published, "expires", "updated"; crawls:<spiderid>:<appid> is the SET of the app's crawlids;
-- crawls:active orders crawls by their last activity. Every script that moves a request in or out of
-- the queues calls account() in the same call, so the counters never drift from the queues.

local function crawl_name(spider, fields)
  return spider .. ':' .. fields.appid .. ':' .. fields.crawlid
end

local function touch(spider, fields, key, clock)
  redis.call('HSET', key, 'updated', clock.millis)
  redis.call('ZADD', 'crawls:active', clock.millis, crawl_name(spider, fields))
end

-- Adds delta (+1 or -1) requests of the crawl for domain. A decrement of a request that was never
-- counted (written by a component that keeps no accounting) changes nothing.
local function account(spider, fields, domain, delta, clock)
  if fields == nil then
    return
  end
  local key = 'crawl:' .. crawl_name(spider, fields)
  local field = domain .. '|' .. fields.priority
  if delta > 0 then
    redis.call('HINCRBY', key, field, delta)
    redis.call('HINCRBY', key, 'pending', delta)
    redis.call('HSET', key, 'expires', string.format('%d', fields.expires))
    redis.call('SADD', 'crawls:' .. spider .. ':' .. fields.appid, fields.crawlid)
  else
    if redis.call('HEXISTS', key, field) == 0 then
      return
    end
    if redis.call('HINCRBY', key, field, delta) <= 0 then
      redis.call('HDEL', key, field)
    end
    if redis.call('HINCRBY', key, 'pending', delta) < 0 then
      redis.call('HSET', key, 'pending', 0)
    end
  end
  touch(spider, fields, key, clock)
end

-- Counts one published page of the crawl (only for a crawl that has accounting).
local function count_page(spider, fields, clock)
  if fields == nil then
    return
  end
  local key = 'crawl:' .. crawl_name(spider, fields)
  if redis.call('EXISTS', key) == 0 then
    return
  end
  redis.call('HINCRBY', key, 'pages', 1)
  touch(spider, fields, key, clock)
end
