-- Crawl accounting (docs/architecture.md): crawl:<spiderid>:<appid>:<crawlid> is a HASH of
-- "<domain>|<priority>" -> requests queued or leased, "pending" -> their total, "pages" -> results
-- published, "expires", "updated"; crawls:<spiderid>:<appid> is the SET of the app's crawlids;
-- crawls:active orders crawls by their last activity. Every script that moves a request in or out of
-- the queues counts it (account_added, account_removed) in the same call, so the counters never
-- drift from the queues.

local function crawl_name(spider, fields)
  return spider .. ':' .. fields.appid .. ':' .. fields.crawlid
end

local function touch(spider, fields, key, clock)
  redis.call('HSET', key, 'updated', clock.millis)
  redis.call('ZADD', 'crawls:active', clock.millis, crawl_name(spider, fields))
end

-- A tally of the requests one call queues, written by write_added once per crawl and per
-- "<domain>|<priority>" field rather than once per request (each redis.call costs microseconds, and
-- a call of a hundred requests usually holds a few crawls): the same counters, fewer commands.
local function new_tally()
  return { crawls = {}, order = {} }
end

-- Counts one request of the crawl of these fields queued for domain. The last request of a crawl
-- names the expires written, as it would when each wrote its own.
local function account_added(tally, spider, fields, domain)
  local key = 'crawl:' .. crawl_name(spider, fields)
  local crawl = tally.crawls[key]
  if crawl == nil then
    crawl = { spider = spider, counts = {}, order = {}, pending = 0 }
    tally.crawls[key] = crawl
    tally.order[#tally.order + 1] = key
  end
  crawl.fields = fields
  local field = domain .. '|' .. fields.priority
  if crawl.counts[field] == nil then
    crawl.counts[field] = 0
    crawl.order[#crawl.order + 1] = field
  end
  crawl.counts[field] = crawl.counts[field] + 1
  crawl.pending = crawl.pending + 1
end

-- Writes what account_added counted.
local function write_added(tally, clock)
  for _, key in ipairs(tally.order) do
    local crawl = tally.crawls[key]
    for _, field in ipairs(crawl.order) do
      redis.call('HINCRBY', key, field, crawl.counts[field])
    end
    redis.call('HINCRBY', key, 'pending', crawl.pending)
    redis.call('HSET', key, 'expires', string.format('%d', crawl.fields.expires), 'updated', clock.millis)
    redis.call('SADD', 'crawls:' .. crawl.spider .. ':' .. crawl.fields.appid, crawl.fields.crawlid)
    redis.call('ZADD', 'crawls:active', clock.millis, crawl_name(crawl.spider, crawl.fields))
  end
end

-- Takes one request of the crawl for domain off its counters (it left the queues and leases). A
-- request that was never counted (written by a component that keeps no accounting) changes nothing.
local function account_removed(spider, fields, domain, clock)
  if fields == nil then
    return
  end
  local key = 'crawl:' .. crawl_name(spider, fields)
  local field = domain .. '|' .. fields.priority
  if redis.call('HEXISTS', key, field) == 0 then
    return
  end
  if redis.call('HINCRBY', key, field, -1) <= 0 then
    redis.call('HDEL', key, field)
  end
  if redis.call('HINCRBY', key, 'pending', -1) < 0 then
    redis.call('HSET', key, 'pending', 0)
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
