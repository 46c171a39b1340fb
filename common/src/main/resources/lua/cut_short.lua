-- Cuts short the leases that hand-outs whose answers their node never got may have made: the call timed
-- out or its connection dropped, and Redis may have run it all the same. Each lease of one of the holders
-- is made due at once, so that the next reap returns its request to its queue instead of at the end of a
-- whole lease. A holder names one hand-out, whose request its node never works on once the answer is
-- lost, so no node holds these requests. The node's leases are found by a scan of the deadlines, matched
-- by a glob on the server, so the call reads only this node's lease ids.
--
-- KEYS[1] <spiderid>:leases   ARGV[1] a glob matching the lease ids of the node's holders
-- ARGV[2..n] the holders of the hand-outs whose answers were lost
-- Returns the number of leases cut short.

local lost = {}
for i = 2, #ARGV do
  lost[ARGV[i]] = true
end
-- collected first: a scan may return an entry twice, and moving a deadline while scanning may too
local found = {}
local cursor = '0'
repeat
  local page = redis.call('ZSCAN', KEYS[1], cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
  cursor = page[1]
  for i = 1, #page[2], 2 do
    local lease_id = page[2][i]
    if lost[string.match(lease_id, '|([^|]*)$')] then
      found[lease_id] = true
    end
  end
until cursor == '0'
local cut = 0
for lease_id in pairs(found) do
  redis.call('ZADD', KEYS[1], 'XX', 0, lease_id)
  cut = cut + 1
end
return cut
