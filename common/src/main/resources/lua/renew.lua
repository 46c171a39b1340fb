-- Moves a lease's deadline to now + ARGV[2] milliseconds (Redis server clock). Needs lib/clock.
--
-- KEYS[1] <spiderid>:leased   KEYS[2] <spiderid>:leases   ARGV[1] lease id   ARGV[2] milliseconds
-- Returns the new deadline in epoch milliseconds, or 0 when the lease is no longer held.

if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 0
end
local deadline = server_clock().millis + tonumber(ARGV[2])
redis.call('ZADD', KEYS[2], deadline, ARGV[1])
return deadline
