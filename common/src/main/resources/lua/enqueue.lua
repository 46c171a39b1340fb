-- Files requests into their domain queues with readiness and crawl accounting, one call for a whole
-- batch (a page's links): used by the Kafka monitor for seeds and by crawlers for discovered links,
-- retries and redirects. Needs the keyspace library, lib/clock, lib/member, lib/accounting, lib/batch,
-- lib/errors.
-- The keys of a request's crawl (accounting, blacklist, timeout) are named from the crawl fields passed
-- with it, with the patterns of the keyspace library; the member itself is never decoded.
--
-- KEYS[i] the <spiderid>:<domain>:queue of request i
-- ARGV[1] "1" to order equal priorities first-in first-out (score = -priority + arrival fraction)
-- ARGV[2] n, the number of requests; then 20 values per request, starting at 3 + (i - 1) * 20:
--   +0 member (JSON, either shape)   +1 spiderid of the queue   +2 domain
--   +3..+6 its crawl fields: appid, crawlid, priority (integer label), expires (0 for none)
--   +7 dupefilter key, "" for none   +8 request fingerprint     +9 dupefilter TTL seconds
--   +10 "1" to SET timeout:<spiderid>:<appid>:<crawlid> to the crawl's expires when it is not 0
--   +11 "1" when the domain is refused (blacklisted in ZooKeeper and SCHEDULER_BACKLOG_BLACKLIST off)
--   +12..+15 and +16..+19: two page limits, each key ("" for none), limit, TTL seconds, and "1" when
--   the TTL is refreshed even when the limit is already reached (docs/compatibility.md §4.6)
--
-- The checks run in the original's order (docs/compatibility.md §4.5: dupefilter, page limits, domain
-- blacklist), except that a stopped (blacklisted) or expired crawl is refused before anything is
-- recorded for it. A page's links are filed with their dupefilter checks in this one call: most of
-- them are duplicates, answered after a stop check made once per crawl and one SADD. Returns one
-- outcome per request, in order: 'QUEUED', 'ALREADY_QUEUED' (this exact member is already in the
-- queue: nothing changes but its fingerprint, registered in the dupefilter if it was not), 'DUPLICATE'
-- (the fingerprint was already in the dupefilter; for a seed, +10, only when its own crawl registered
-- it: seed_of_another_crawl), 'PAGE_LIMIT'
-- (a page limit of the crawl and domain is reached), 'BLACKLISTED' (the crawl is stopped or expired),
-- 'DOMAIN_BLACKLISTED', 'EXPIRED' (its expires has passed), 'KEY_CONFLICT <error>' (Redis refuses a key of it:
-- one of another type, such as a name the original's keys share with another key, or a page counter that
-- holds no number; neither queued, in the dupefilter nor counted against a page limit, enqueue_each); then one more
-- element, n characters, the i-th '1' when request i wrote its crawl's timeout key and '0' when not (a caller
-- reading the outcomes by position reads them as before).
-- The timeout key (+10) is written after every outcome but BLACKLISTED, KEY_CONFLICT and EXPIRED (unless the
-- crawl is live): the original's Kafka monitor sets it for every seed it takes, whatever becomes of the member,
-- so a seed sent again with another expires moves the crawl's expiry even when it is not queued again, and one
-- whose expires has passed expires the running crawl (docs/api.md). This
-- script alone decides it (writes_timeout); Java reads the answer (EnqueueResult.timeoutWritten).

local FIELDS = 20
local fifo = ARGV[1] == '1'
local count = tonumber(ARGV[2])
local clock = server_clock()
local FIFO_EPOCH_MILLIS = 1767225600000
local FIFO_SPAN_MILLIS = 1000000000000
-- stop checks, dupefilter expiries, domain activations and accounting are made once per call
local batch = new_batch()
local tally = new_tally()

-- What the request being filed has written that a failure after it must take back: its fingerprint in
-- the dupefilter, the page counters it counted in, its member in the queue (see enqueue_each).
local filing

-- The original's page filter, atomic: at most limit - 1 requests pass; the one that makes the
-- counter reach the limit is itself refused.
local function page_limit_reached(key, limit, ttl, refresh_when_reached)
  if key == '' then
    return false
  end
  local n = tonumber(redis.call('GET', key) or '0')
  if n == nil then
    error('the page counter ' .. key .. ' holds no number', 0)
  end
  if n >= limit then
    if refresh_when_reached then
      redis.call('EXPIRE', key, ttl)
    end
    return true
  end
  n = redis.call('INCR', key)
  filing.counted = filing.counted or {}
  filing.counted[#filing.counted + 1] = key
  redis.call('EXPIRE', key, ttl)
  return n >= limit
end

-- Takes back the page counts of the request being filed.
local function uncount()
  for _, counter in ipairs(filing.counted or {}) do
    redis.call('DECR', counter)
  end
  filing.counted = nil
end

-- Whether the crawl of these fields is live: requests of it were queued and it has been neither retired,
-- stopped nor expired since (it is listed in crawls:active).
local function crawl_live(spider, fields)
  return redis.call('ZSCORE', KEYSPACE.crawls_active, crawl_name(spider, fields)) ~= false
end

-- Whether a seed whose fingerprint the dupefilter holds comes to a crawl other than the one that registered it. The
-- dupefilter is the spider's and crawlid's, shared by every app (the original's key), so another app's crawl of the
-- same crawlid, or this crawl before it finished, may have registered the URL: such a seed is queued, as the
-- original queues every seed. It is a duplicate only while its own crawl is live, or queued a request earlier in
-- this call: a record delivered again, or the URL fed twice to one running crawl.
local function seed_of_another_crawl(spider, fields)
  return tally.crawls[accounting_key(spider, fields)] == nil and not crawl_live(spider, fields)
end

local function file_request(queue, base, arrival, fields)
  local member, spider, domain = ARGV[base], ARGV[base + 1], ARGV[base + 2]
  local dupefilter, fingerprint, dupefilter_ttl = ARGV[base + 7], ARGV[base + 8], ARGV[base + 9]
  local domain_refused = ARGV[base + 11] == '1'

  -- a stopped or expired crawl is refused first, so that its refused requests leave no trace
  if crawl_stopped(batch, KEYSPACE.blacklist(spider), fields) then
    return 'BLACKLISTED'
  end
  if expired(fields, clock) then
    return 'EXPIRED'
  end
  if dupefilter ~= '' then
    local added = redis.call('SADD', dupefilter, fingerprint)
    dupefilter_used(batch, dupefilter, dupefilter_ttl)
    if added == 1 then
      filing.fingerprint = fingerprint
    elseif ARGV[base + 10] ~= '1' or not seed_of_another_crawl(spider, fields) then
      return 'DUPLICATE'
    end
  end
  for limit_base = base + 12, base + 16, 4 do
    if page_limit_reached(ARGV[limit_base], tonumber(ARGV[limit_base + 1]), ARGV[limit_base + 2],
        ARGV[limit_base + 3] == '1') then
      return 'PAGE_LIMIT'
    end
  end
  if domain_refused then
    return 'DOMAIN_BLACKLISTED'
  end

  local score = -tonumber(fields.priority)
  if fifo then
    -- in [0, 1) until 2057: later arrivals of one priority sort after earlier ones, the milliseconds since
    -- 2026-01-01 over 10^12 (a fraction that wrapped, as one taken modulo a period would, would put every request
    -- filed after the wrap before every request of its priority filed before it); arrival (below 1 ms) keeps the
    -- requests of one call in the order given
    score = score + ((clock.millis - FIFO_EPOCH_MILLIS) + arrival) / FIFO_SPAN_MILLIS
  end
  if redis.call('ZADD', queue, 'NX', score, member) == 0 then
    -- nothing changes: the page counters it counted in are taken back (a write sent again after a failure, the
    -- same request filed twice without a dupefilter)
    uncount()
    return 'ALREADY_QUEUED'
  end
  filing.queued = true
  activate_domain(batch, spider, domain, clock)
  account_added(tally, spider, fields, domain)
  return 'QUEUED'
end

-- The outcomes after which a request's crawl keeps its timeout key (see the header): the crawl is
-- neither stopped nor expired, and the request's keys could be used.
local KEEPS_TIMEOUT = {
  QUEUED = true, ALREADY_QUEUED = true, DUPLICATE = true, PAGE_LIMIT = true, DOMAIN_BLACKLISTED = true
}

-- Whether request i's outcome leaves its crawl's timeout key to be written: after an outcome that keeps it,
-- and after EXPIRED when the crawl is live, so that a seed whose expires has passed expires a running crawl
-- at once, as the original's SET of the key makes its Redis monitor do (docs/differences.md).
local function writes_timeout(outcome, spider, fields)
  return KEEPS_TIMEOUT[outcome] or outcome == 'EXPIRED' and crawl_live(spider, fields)
end

-- Files request i (file_request) and writes its crawl's timeout key when it asks for it; returns the outcome,
-- and '1' when it wrote the key, '0' when not. The crawl accounting's expires is left as it is: it is that of
-- the requests queued (written with them by write_added), which keep the expires they were sent with.
local function enqueue(queue, base, arrival)
  local fields = passed_crawl_fields(base + 3)
  local outcome = file_request(queue, base, arrival, fields)
  if ARGV[base + 10] == '1' and fields.expires ~= 0 and writes_timeout(outcome, ARGV[base + 1], fields) then
    -- the expires text as the request gives it, as the original writes it: formatted here, an expires
    -- beyond the range of a long would come out as -9223372036854775808, long past
    redis.call('SET', KEYSPACE.timeout(ARGV[base + 1], fields.appid, fields.crawlid), ARGV[base + 6])
    return outcome, '1'
  end
  return outcome, '0'
end

-- Takes back what request i wrote before it failed (filing), newest first.
local function take_back(queue, base)
  if filing.queued then
    redis.call('ZREM', queue, ARGV[base])
  end
  uncount()
  if filing.fingerprint then
    redis.call('SREM', ARGV[base + 7], filing.fingerprint)
  end
end

-- Files request i (enqueue). A key of it that Redis refuses (lib/errors: a queue, dupefilter, blacklist or
-- crawl key of another type, a page counter that holds no number) refuses this request alone, as
-- 'KEY_CONFLICT <Redis' words>', with what it wrote taken back, so that it is filed once the key is
-- repaired and the requests after it are filed meanwhile. An error that says Redis takes no writes fails
-- the whole call, for the caller to wait it out as an outage: it comes at the first write of a call (out of
-- memory, a replica), so nothing of the call was written: then the answer is nil and Redis' words.
local function enqueue_each(queue, base, arrival)
  filing = {}
  local ok, outcome, timeout_written = pcall(enqueue, queue, base, arrival)
  if ok then
    return outcome, timeout_written
  end
  if writes_refused(outcome) then
    return nil, error_text(outcome)
  end
  take_back(queue, base)
  return 'KEY_CONFLICT ' .. error_text(outcome), '0'
end

local outcomes = {}
local timeouts_written = {}
for i = 1, count do
  local outcome, written = enqueue_each(KEYS[i], 3 + (i - 1) * FIELDS, (i - 1) / count)
  if outcome == nil then
    return redis.error_reply(written)
  end
  outcomes[i], timeouts_written[i] = outcome, written
end
write_added(tally, clock)
expire_dupefilters(batch)
outcomes[count + 1] = table.concat(timeouts_written)
return outcomes
