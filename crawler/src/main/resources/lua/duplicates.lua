-- Which of a page's requests the enqueue script (lua/enqueue.lua) would certainly answer 'DUPLICATE',
-- so that the crawler neither encodes nor sends them: most links a crawl finds are pages it already
-- has. Needs the keyspace library, lib/clock, lib/member, lib/batch.
--
-- KEYS[i] the dupefilter of request i (<spiderid>:dupefilter:<crawlid>)
-- ARGV[1] n, the number of requests; then 6 values per request, starting at 2 + (i - 1) * 6:
--   +0 spiderid of the queue   +1 appid   +2 crawlid   +3 expires (epoch seconds, 0 for none)
--   +4 request fingerprint     +5 dupefilter TTL seconds
--
-- A request is a duplicate when its crawl is neither stopped (blacklisted) nor expired — the checks
-- the enqueue script makes before the dupefilter — and its fingerprint is in the dupefilter; the
-- dupefilter's TTL is then refreshed, as the enqueue script does for a duplicate. Returns 1 for a
-- duplicate and 0 otherwise, one per request in order; the 0s go through the enqueue script, which
-- decides them atomically. A page's links share a crawl and a dupefilter, so each crawl's stop check
-- and each dupefilter's expiry is made once per call, as in the enqueue script.

local FIELDS = 6
local count = tonumber(ARGV[1])
local clock = server_clock()
local batch = new_batch()

local function duplicate(dupefilter, base)
  local fields = { appid = ARGV[base + 1], crawlid = ARGV[base + 2], expires = tonumber(ARGV[base + 3]) }
  if crawl_stopped(batch, ARGV[base], fields) or expired(fields, clock) then
    return 0
  end
  if redis.call('SISMEMBER', dupefilter, ARGV[base + 4]) == 0 then
    return 0
  end
  dupefilter_used(batch, dupefilter, ARGV[base + 5])
  return 1
end

local answers = {}
for i = 1, count do
  answers[i] = duplicate(KEYS[i], 2 + (i - 1) * FIELDS)
end
expire_dupefilters(batch)
return answers
