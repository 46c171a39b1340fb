-- One bounded step of purging a crawl: scans a batch of one domain queue (mode "queue", ZSCAN) or
-- of the spider's leases (mode "leases", HSCAN) and removes the crawl's requests, with accounting; a queue it empties
-- leaves <spiderid>:active_domains.
-- The caller blacklists the crawl first, so that no new request of it can be enqueued or leased,
-- and repeats until the cursor returns to "0". Needs the keyspace library, lib/clock, lib/member, lib/accounting,
-- lib/lease.
--
-- mode queue:  KEYS[1] <spiderid>:<domain>:queue
-- mode leases: KEYS[1] <spiderid>:leased   KEYS[2] <spiderid>:leases
-- ARGV[1] mode   ARGV[2] cursor   ARGV[3] batch size   ARGV[4] spiderid   ARGV[5] appid
-- ARGV[6] crawlid   ARGV[7] domain (mode queue)   ARGV[8] seconds the count of removed requests is kept
-- Returns {next cursor, requests removed}. What it removes from a queue is also added up in
-- purged:<spiderid>:<appid>:<crawlid>, in the same step, for the stop or expiry's answer (lib/forget takes it), so that a
-- purge cut off midway and done again answers for what both removed. A lease removed is not added: its request is being
-- fetched, and its page, already asked for, is still published; the answer counts the requests that will not be
-- crawled, as the original's counts those it took out of its queues (docs/api.md "stop").

local by_queue = ARGV[1] == 'queue'
local spider, appid, crawlid = ARGV[4], ARGV[5], ARGV[6]
local clock = server_clock()
local scan = redis.call(by_queue and 'ZSCAN' or 'HSCAN', KEYS[1], ARGV[2], 'COUNT', ARGV[3])
local items = scan[2]
local removed = 0
for i = 1, #items, 2 do
  local member, domain, score
  if by_queue then
    member, score, domain = items[i], items[i + 1], ARGV[7]
  else
    member = items[i + 1]
    domain, score = lease_parts(items[i])
  end
  local fields = crawl_fields(member, score)
  if fields ~= nil and fields.appid == appid and fields.crawlid == crawlid then
    local gone
    if by_queue then
      gone = redis.call('ZREM', KEYS[1], member)
    else
      gone = redis.call('HDEL', KEYS[1], items[i])
      redis.call('ZREM', KEYS[2], items[i])
    end
    if gone == 1 then
      removed = removed + 1
      if by_queue then
        queue_length_changed(spider, domain, -1)
      end
      if domain ~= nil then
        -- a crawl whose accounting Redis refuses is purged all the same (lib/accounting)
        account_or_distrust(account_removed, spider, fields, domain, clock)
      end
    end
  end
end
if by_queue and removed > 0 and redis.call('EXISTS', KEYS[1]) == 0 then
  -- an emptied queue leaves the spider's active domains here too: otherwise only a hand-out takes it out, and a spider
  -- no crawler runs (a spiderid sent by mistake) would keep its index, and its backlog meter, for good
  redis.call('ZREM', KEYSPACE.active_domains(spider), ARGV[7])
end
if by_queue and removed > 0 then
  local purged = KEYSPACE.purged(spider, appid, crawlid)
  -- pcall: a key written by hand as another type, or holding no number, is replaced rather than failing the step
  -- after its removals (which Redis does not undo), as lib/forget reads it
  if type(redis.pcall('INCRBY', purged, removed)) ~= 'number' then
    redis.call('SET', purged, removed)
  end
  redis.call('EXPIRE', purged, ARGV[8])
end
return {scan[1], removed}
