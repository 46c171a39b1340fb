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

local ids, held = {}, {}
for i = 1, count do
  ids[i] = ARGV[3 + (i - 1) * FIELDS]
end
redis.call('ZREM', leases, unpack(ids))
for i = 1, count do
  local base = 3 + (i - 1) * FIELDS
  held[i] = redis.call('HDEL', leased, ids[i])
  if held[i] == 1 then
    tally_removed(tally, spider, passed_crawl_fields(base + 2), lease_parts(ids[i]), ARGV[base + 1] == '1')
  end
end
write_removed(tally, clock)
return held
