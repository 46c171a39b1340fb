-- Acknowledges leases: their requests are done (results published, or finally failed). One call
-- settles every acknowledgement a node gathered while its previous call was out (docs/architecture.md
-- "Leases"). Needs the keyspace library, lib/clock, lib/member, lib/accounting, lib/lease.
--
-- KEYS[1] <spiderid>:leased   KEYS[2] <spiderid>:leases
-- ARGV[1] spiderid            ARGV[2] n, the number of leases; then 6 values per lease, starting at
--   3 + (i - 1) * 6: +0 lease id, +1 "1" when a page was published, +2..+5 the request's crawl fields
--   (appid, crawlid, priority, expires; all "" for none), which the crawler read when it decoded the
--   member: the member is not decoded again here
-- Returns one integer per lease, in order: 1 when it was held, 0 when it is unknown (already
-- acknowledged, reaped back to its queue, or purged by a stop).

local FIELDS = 6
local leased, leases = KEYS[1], KEYS[2]
local spider, count = ARGV[1], tonumber(ARGV[2])
local clock = server_clock()
local tally = new_tally()

-- Three commands a call, whatever the number of leases: which are held (one HMGET), then both
-- removals. A lease id given twice is held only the first time, as if each were removed in turn.
local ids, held, settled = {}, {}, {}
for i = 1, count do
  ids[i] = ARGV[3 + (i - 1) * FIELDS]
end
local members = redis.call('HMGET', leased, unpack(ids))
redis.call('HDEL', leased, unpack(ids))
redis.call('ZREM', leases, unpack(ids))
for i = 1, count do
  local base = 3 + (i - 1) * FIELDS
  held[i] = 0
  if members[i] and not settled[ids[i]] then
    settled[ids[i]] = true
    held[i] = 1
    tally_removed(tally, spider, passed_crawl_fields(base + 2), lease_parts(ids[i]), ARGV[base + 1] == '1')
  end
end
write_removed(tally, clock)
return held
