-- Crawl accounting (docs/architecture.md): crawl:<spiderid>:<appid>:<crawlid> is a HASH of
-- "<domain>|<priority>" -> requests queued or leased, "pending" -> their total, "pages" -> results
-- published, "expires", "updated", "started" (epoch milliseconds on the server's clock when its first
-- request was counted), and once the crawl is stopped or has expired "dropped"
-- (account_dropped); crawls:<spiderid>:<appid> is the SET of the app's crawlids;
-- crawls:active orders crawls by their last activity. Every script that moves a request in or out of
-- the queues counts it (account_added, account_removed) in the same call, so the counters never
-- drift from the queues.
--
-- Processes that keep no accounting (the Python original's crawler and Kafka monitor,
-- docs/operations.md "Mixed Python and Java clusters") are noticed two ways: <spiderid>:queue_lengths
-- is a HASH of domain -> the length its queue had when one of our scripts last changed it
-- (queue_length_changed), which ZCARD contradicts once a foreign process pushed or popped; and a
-- request that leaves the queues without having been counted puts its crawl in crawls:foreign.

-- Needs the keyspace library, which names every key.

local function crawl_name(spider, fields)
  return KEYSPACE.crawl_name(spider, fields.appid, fields.crawlid)
end

local function accounting_key(spider, fields)
  return KEYSPACE.accounting(spider, fields.appid, fields.crawlid)
end

-- Lists the crawl of these fields among its app's crawls (crawls:<spiderid>:<appid>). pcall: under the appid
-- "queue" that name is also the queue key of a spider "crawls", and a sorted set there leaves the crawl unlisted
-- rather than failing the call.
local function index_crawl(spider, fields)
  redis.pcall('SADD', KEYSPACE.crawls_of_app(spider, fields.appid), fields.crawlid)
end

-- Notes that the crawl of these fields moved now: it goes to the server clock's time in crawls:active, and
-- out of crawls:drained_seen, so that a foreign crawl that resumed after a completion check found it drained is
-- announced only once two checks after this find it drained again.
local function mark_active(spider, fields, clock)
  local name = crawl_name(spider, fields)
  redis.call('ZADD', KEYSPACE.crawls_active, clock.millis, name)
  redis.call('HDEL', KEYSPACE.crawls_drained_seen, name)
end

local function touch(spider, fields, key, clock)
  redis.call('HSET', key, 'updated', clock.millis)
  mark_active(spider, fields, clock)
end

-- A tally of the requests one call queues (account_added, then write_added) or settles (tally_removed,
-- then write_removed), written once per crawl and per "<domain>|<priority>" field rather than once per
-- request (each redis.call costs microseconds, and a call of a hundred requests usually holds a few
-- crawls): the same counters, fewer commands.
local function new_tally()
  return { crawls = {}, order = {}, lengths = {}, length_order = {} }
end

-- Moves the recorded length of one domain queue by delta (the HASH keeps no zero fields). A lengths key or field
-- Redis refuses (of another type, holding no number: edited by hand) is left as it is rather than failing the call
-- that moved a request: the lengths it records then contradict the queues, and the spider's crawls are answered
-- from the queues, as crawls a Python process moved are. Every caller has written before, so an error saying Redis
-- takes no writes would have come already.
local function queue_length_changed(spider, domain, delta)
  local lengths = KEYSPACE.queue_lengths(spider)
  local length = redis.pcall('HINCRBY', lengths, domain, delta)
  if type(length) == 'number' and length <= 0 then
    redis.call('HDEL', lengths, domain)
  end
end

-- The entry of the crawl of these fields in a tally, made on first use. The last request of a crawl
-- names the fields kept (and so the expires write_added writes), as it would when each wrote its own.
local function tallied_crawl(tally, spider, fields)
  local key = accounting_key(spider, fields)
  local crawl = tally.crawls[key]
  if crawl == nil then
    crawl = { spider = spider, counts = {}, order = {}, pending = 0, pages = 0 }
    tally.crawls[key] = crawl
    tally.order[#tally.order + 1] = key
  end
  crawl.fields = fields
  return crawl
end

-- Counts one request of a tallied crawl under its "<domain>|<priority>" field.
local function tally_field(crawl, domain, fields)
  local field = domain .. '|' .. fields.priority
  if crawl.counts[field] == nil then
    crawl.counts[field] = 0
    crawl.order[#crawl.order + 1] = field
  end
  crawl.counts[field] = crawl.counts[field] + 1
end

-- Counts one request of the crawl of these fields queued for domain.
local function account_added(tally, spider, fields, domain)
  local crawl = tallied_crawl(tally, spider, fields)
  tally_field(crawl, domain, fields)
  crawl.pending = crawl.pending + 1
  local queue = spider .. '\n' .. domain
  if tally.lengths[queue] == nil then
    tally.lengths[queue] = { spider = spider, domain = domain, added = 0 }
    tally.length_order[#tally.length_order + 1] = queue
  end
  tally.lengths[queue].added = tally.lengths[queue].added + 1
end

-- A number as the whole-number text Java reads: truncated toward zero and written out in full. Not %d,
-- which writes a number beyond the range of a long as -9223372036854775808.
local function whole_number_text(number)
  return string.format('%.0f', number < 0 and math.ceil(number) or math.floor(number))
end

-- Puts the crawl of these fields in crawls:foreign, for good: its counters no longer answer for it, so its
-- answers come from the queues, and its hash is deleted when it is forgotten (lib/forget).
local function distrust(spider, fields)
  redis.call('SADD', KEYSPACE.crawls_foreign, crawl_name(spider, fields))
end

-- Calls write(key, crawl) for each crawl a tally noted, each under pcall: a crawl whose accounting Redis
-- refuses (its hash of another type, or a counter in it that holds no number: edited by hand or
-- corrupted; docs/operations.md "Keys Redis refuses") loses what this call counted for it and is
-- distrusted, and the other crawls of the call are written. The call comes after the requests' own
-- writes, so a Redis that takes no writes has refused the call before it gets here.
local function write_each_crawl(tally, write)
  for _, key in ipairs(tally.order) do
    local crawl = tally.crawls[key]
    if not pcall(write, key, crawl) then
      distrust(crawl.spider, crawl.fields)
    end
  end
end

-- Writes what account_added counted.
local function write_added(tally, clock)
  write_each_crawl(tally, function(key, crawl)
    for _, field in ipairs(crawl.order) do
      redis.call('HINCRBY', key, field, crawl.counts[field])
    end
    -- A pending count of just these requests is a crawl's first (or one that drained before its retirement,
    -- whose start stays): its start is written once, so that no call after the first pays for it.
    if redis.call('HINCRBY', key, 'pending', crawl.pending) == crawl.pending then
      redis.call('HSETNX', key, 'started', clock.millis)
    end
    redis.call('HSET', key, 'expires', whole_number_text(crawl.fields.expires), 'updated', clock.millis)
    index_crawl(crawl.spider, crawl.fields)
    mark_active(crawl.spider, crawl.fields, clock)
  end)
  for _, queue in ipairs(tally.length_order) do
    local length = tally.lengths[queue]
    queue_length_changed(length.spider, length.domain, length.added)
  end
end

-- True when the request of these fields for domain was never counted (written by a component that
-- keeps no accounting): its crawl then goes into crawls:foreign, whose answers come from reading the
-- queues, into the app's crawls and into crawls:active, so that its completion is looked for.
local function unaccounted(spider, fields, domain, clock)
  local key = accounting_key(spider, fields)
  if redis.call('HEXISTS', key, domain .. '|' .. fields.priority) == 1 then
    return false
  end
  redis.call('SADD', KEYSPACE.crawls_foreign, crawl_name(spider, fields))
  index_crawl(spider, fields)
  mark_active(spider, fields, clock)
  return true
end

-- Takes one request of the crawl for domain off its counters (it left the queues and leases). A
-- request that was never counted changes no counter (see unaccounted). Returns true when it counted
-- (and so touched the crawl's accounting).
local function account_removed(spider, fields, domain, clock)
  if fields == nil or unaccounted(spider, fields, domain, clock) then
    return false
  end
  local key = accounting_key(spider, fields)
  local field = domain .. '|' .. fields.priority
  if redis.call('HINCRBY', key, field, -1) <= 0 then
    redis.call('HDEL', key, field)
  end
  if redis.call('HINCRBY', key, 'pending', -1) < 0 then
    redis.call('HSET', key, 'pending', 0)
  end
  touch(spider, fields, key, clock)
  return true
end

-- Runs step(spider, fields, domain, clock), one of account_removed, account_dropped and unaccounted, for a
-- request that moved, under pcall: a crawl whose accounting Redis refuses (as in write_each_crawl) is
-- distrusted rather than the request kept from moving. Call it after the request's own writes, so that
-- a Redis that takes no writes has refused the call before.
local function account_or_distrust(step, spider, fields, domain, clock)
  if fields ~= nil and not pcall(step, spider, fields, domain, clock) then
    distrust(spider, fields)
  end
end

-- Takes a request a hand-out dropped, as its crawl was stopped or has expired, off its counters as
-- account_removed does, and counts it in the crawl's "dropped" field, which the stop or the expiry that
-- ends the crawl adds to the requests it purged itself (lib/forget): crawlers drop the crawl's requests
-- from the moment it is blacklisted, meanwhile. Only a counted crawl's: no hash is made for it.
local function account_dropped(spider, fields, domain, clock)
  if account_removed(spider, fields, domain, clock) then
    redis.call('HINCRBY', accounting_key(spider, fields), 'dropped', 1)
  end
end

-- Notes one settled request (an acknowledged lease) in a tally (new_tally), for write_removed to take
-- off the counters once per crawl and per "<domain>|<priority>" field: the counters that taking each
-- request off (account_removed) and counting its page would leave, in fewer commands. fields nil: of no
-- crawl, which counts nothing; domain nil: its lease id could not be read, so only its page counts.
local function tally_removed(tally, spider, fields, domain, published)
  if fields == nil then
    return
  end
  local crawl = tallied_crawl(tally, spider, fields)
  if domain ~= nil then
    tally_field(crawl, domain, fields)
  end
  if published then
    crawl.pages = crawl.pages + 1
  end
end

-- Writes what tally_removed noted. Of n requests under one field holding c, min(n, c) are taken off
-- it; the rest were never counted (see unaccounted), as they would be found one by one. The field is
-- decremented first and read from the answer (the counters are never below 0, so what it held is the
-- answer plus n): one command a field, two when it reaches 0.
local function write_removed(tally, clock)
  write_each_crawl(tally, function(key, crawl)
    local spider, fields = crawl.spider, crawl.fields
    local counted, foreign = 0, false
    for _, field in ipairs(crawl.order) do
      local settled = crawl.counts[field]
      local left = redis.call('HINCRBY', key, field, -settled)
      if left <= 0 then
        redis.call('HDEL', key, field)
      end
      counted = counted + settled + math.min(0, left)
      foreign = foreign or left < 0
    end
    if foreign then
      redis.call('SADD', KEYSPACE.crawls_foreign, crawl_name(spider, fields))
      index_crawl(spider, fields)
    end
    if counted > 0 and redis.call('HINCRBY', key, 'pending', -counted) < 0 then
      redis.call('HSET', key, 'pending', 0)
    end
    local pages_counted = crawl.pages > 0 and (counted > 0 or redis.call('EXISTS', key) == 1)
    if pages_counted then
      redis.call('HINCRBY', key, 'pages', crawl.pages)
    end
    if counted > 0 or pages_counted then
      touch(spider, fields, key, clock)
    elseif foreign then
      mark_active(spider, fields, clock)
    end
  end)
end
