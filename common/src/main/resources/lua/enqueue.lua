-- Files one request into its domain queue with readiness and crawl accounting, in one call: used
-- by the Kafka monitor for seeds and by crawlers for discovered links, retries, redirects and
-- returned requests. Needs lib/clock, lib/member, lib/accounting.
--
-- KEYS[1] <spiderid>:<domain>:queue   KEYS[2] <spiderid>:active_domains   KEYS[3] <spiderid>:blacklist
-- ARGV[1] member (JSON, either shape)  ARGV[2] spiderid   ARGV[3] domain
-- ARGV[4] "1" to order equal priorities first-in first-out (score = -priority + arrival fraction)
-- ARGV[5] dupefilter key, "" for none  ARGV[6] request fingerprint   ARGV[7] dupefilter TTL seconds
-- ARGV[8] "1" to SET timeout:<spiderid>:<appid>:<crawlid> to the crawl's expires when it is not 0
--
-- Returns one of 'QUEUED', 'ALREADY_QUEUED' (this exact member is already in the queue: nothing
-- changes), 'DUPLICATE' (the fingerprint was already in the dupefilter), 'BLACKLISTED' (the crawl
-- is stopped or expired), 'EXPIRED' (its expires has passed), 'INVALID' (the member has no string
-- appid and crawlid or no numeric priority).

local queue, active, blacklist = KEYS[1], KEYS[2], KEYS[3]
local member, spider, domain = ARGV[1], ARGV[2], ARGV[3]
local fifo = ARGV[4] == '1'
local dupefilter, fingerprint, dupefilter_ttl = ARGV[5], ARGV[6], ARGV[7]
local write_timeout = ARGV[8] == '1'
local clock = server_clock()

local fields = crawl_fields(member, nil)
if fields == nil or not fields.priority_given then
  return 'INVALID'
end
if redis.call('SISMEMBER', blacklist, blacklist_entry(fields)) == 1 then
  return 'BLACKLISTED'
end
if expired(fields, clock) then
  return 'EXPIRED'
end
if dupefilter ~= '' then
  local added = redis.call('SADD', dupefilter, fingerprint)
  redis.call('EXPIRE', dupefilter, dupefilter_ttl)
  if added == 0 then
    return 'DUPLICATE'
  end
end

local score = -tonumber(fields.priority)
if fifo then
  -- in [0, 1): later arrivals of one priority sort after earlier ones (wraps every ~115 days)
  score = score + (clock.millis % 10000000000) / 10000000000
end
if redis.call('ZADD', queue, 'NX', score, member) == 0 then
  return 'ALREADY_QUEUED'
end
redis.call('ZADD', active, 'NX', clock.millis, domain)
account(spider, fields, domain, 1, clock)
if write_timeout and fields.expires ~= 0 then
  redis.call('SET', 'timeout:' .. spider .. ':' .. fields.appid .. ':' .. fields.crawlid,
    string.format('%d', fields.expires))
end
return 'QUEUED'
