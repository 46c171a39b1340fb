-- Files one request into its domain queue with readiness and crawl accounting (enqueue.lua and
-- enqueue_many.lua call it). Needs lib/clock, lib/member, lib/accounting.
--
-- queue <spiderid>:<domain>:queue   active <spiderid>:active_domains   blacklist <spiderid>:blacklist
-- member: JSON, either shape   spider, domain: the queue's parts
-- fifo: true to order equal priorities first-in first-out (score = -priority + arrival fraction);
-- arrival: milliseconds (below 1) added to the clock for the arrival fraction, to order the requests
-- of one call
-- dupefilter: key, '' for none   fingerprint: the request's   dupefilter_ttl: seconds
-- write_timeout: true to SET timeout:<spiderid>:<appid>:<crawlid> to the crawl's expires when it is not 0
--
-- Returns one of 'QUEUED', 'ALREADY_QUEUED' (this exact member is already in the queue: nothing
-- changes), 'DUPLICATE' (the fingerprint was already in the dupefilter), 'BLACKLISTED' (the crawl
-- is stopped or expired), 'EXPIRED' (its expires has passed), 'INVALID' (the member has no string
-- appid and crawlid or no numeric priority).
local function enqueue_request(queue, active, blacklist, member, spider, domain, fifo, arrival,
                               dupefilter, fingerprint, dupefilter_ttl, write_timeout, clock)
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
    score = score + ((clock.millis % 10000000000) + arrival) / 10000000000
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
end
