-- Acknowledges a lease: the request is done (its result published, or finally failed). Needs the
-- keyspace library, lib/clock, lib/member, lib/accounting, lib/lease.
--
-- KEYS[1] <spiderid>:leased   KEYS[2] <spiderid>:leases
-- ARGV[1] lease id            ARGV[2] "1" when a page was published   ARGV[3] spiderid
-- ARGV[4..7] the request's crawl fields (appid, crawlid, priority, expires; all "" for none), which
--            the crawler read when it decoded the member: the member is not decoded again here
-- Returns 1 when the lease was held, 0 when it is unknown (already acknowledged, reaped back to its
-- queue, or purged by a stop).

local leased, leases = KEYS[1], KEYS[2]
local lease_id, published, spider = ARGV[1], ARGV[2] == '1', ARGV[3]
local member = redis.call('HGET', leased, lease_id)
redis.call('ZREM', leases, lease_id)
if not member then
  return 0
end
redis.call('HDEL', leased, lease_id)
local clock = server_clock()
local domain = lease_parts(lease_id)
local fields = passed_crawl_fields(4)
local counted = domain ~= nil and account_removed(spider, fields, domain, clock)
if published then
  count_page(spider, fields, clock, counted)
end
return 1
