-- Files many requests into their domain queues in one call, each exactly as enqueue.lua files one,
-- in order, at one instant of the server clock (equal priorities still come out in the order given
-- with first-in first-out). Needs lib/clock, lib/member, lib/accounting, lib/enqueue.
--
-- ARGV[1] "1" for first-in first-out, then 10 values per request: <spiderid>:<domain>:queue,
-- <spiderid>:active_domains, <spiderid>:blacklist, member, spiderid, domain, dupefilter key ("" for
-- none), fingerprint, dupefilter TTL seconds, "1" to write the timeout key.
--
-- Returns the outcomes of lib/enqueue's enqueue_request, one per request, in order.

local clock = server_clock()
local fifo = ARGV[1] == '1'
local count = (#ARGV - 1) / 10
local outcomes = {}
for n = 0, count - 1 do
  local i = 2 + n * 10
  outcomes[n + 1] = enqueue_request(ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5],
    fifo, n / count, ARGV[i + 6], ARGV[i + 7], ARGV[i + 8], ARGV[i + 9] == '1', clock)
end
return outcomes
