-- What one call that files or checks many requests learns once and need not ask Redis again: a
-- redis.call costs microseconds, and a call of a hundred requests usually holds a few crawls,
-- dupefilters and domains. Used by lua/enqueue.lua and lua/handout.lua; needs the
-- keyspace library and lib/member.

local function new_batch()
  return { stopped = {}, dupefilters = {}, dupefilter_ttls = {}, active = {} }
end

-- Whether the crawl of these fields is stopped: on the spider's blacklist (<spider>:blacklist), asked
-- once per call, since the blacklist cannot change during one.
local function crawl_stopped(batch, blacklist, fields)
  local entry = blacklist_entry(fields)
  local crawl = blacklist .. '\n' .. entry
  if batch.stopped[crawl] == nil then
    batch.stopped[crawl] = redis.call('SISMEMBER', blacklist, entry) == 1
  end
  return batch.stopped[crawl]
end

-- Seconds the activation marker outlives the last activation.
local MARKER_SECONDS = 86400

-- Puts domain in <spider>:active_domains, keeping the place it has, once per call. A domain not there
-- is scored by the spider's activation marker, which only grows: the epoch milliseconds of the clock,
-- or one more than the last marker when the clock is not past it. A domain that leaves and comes back
-- within one millisecond (or after the clock stepped back) is so scored above where a reader has looked. The marker
-- lasts a day from the last activation, by when the clock is past it, so that a spider gone leaves no key.
-- A domain put there is published on <spider>:active_domains:added, for crawler nodes to look at once; a
-- publication an ACL refuses is left out (the nodes' slower poll finds the domain).
local function activate_domain(batch, spider, domain, clock)
  local active = KEYSPACE.active_domains(spider)
  local member = active .. '\n' .. domain
  if not batch.active[member] then
    if not redis.call('ZSCORE', active, domain) then
      local marker_key = KEYSPACE.activation_marker(spider)
      local marker = math.max(clock.millis, (tonumber(redis.call('GET', marker_key)) or 0) + 1)
      redis.call('SET', marker_key, string.format('%d', marker), 'EX', MARKER_SECONDS)
      redis.call('ZADD', active, marker, domain)
      redis.pcall('PUBLISH', KEYSPACE.activations(spider), domain)
    end
    batch.active[member] = true
  end
end

-- Notes a use of dupefilter, whose expiry expire_dupefilters sets to ttl (the last use's).
local function dupefilter_used(batch, dupefilter, ttl)
  if batch.dupefilter_ttls[dupefilter] == nil then
    batch.dupefilters[#batch.dupefilters + 1] = dupefilter
  end
  batch.dupefilter_ttls[dupefilter] = ttl
end

-- Refreshes the expiry of every dupefilter used in the call, once each.
local function expire_dupefilters(batch)
  for _, dupefilter in ipairs(batch.dupefilters) do
    redis.call('EXPIRE', dupefilter, batch.dupefilter_ttls[dupefilter])
  end
end
