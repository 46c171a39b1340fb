-- Takes a cluster-wide turn to scan the keyspace (ScanTurn, docs/operations.md "Scans of the keyspace"), or a lock for a
-- holder that asks with the same token each time (RedisLocks.tryAcquireAs): the key holds its holder's token and always
-- expires.
--
-- KEYS[1] the turn's key   ARGV[1] the caller's token   ARGV[2] how long to hold the turn, in milliseconds
-- Returns 1 when the caller has the turn for ARGV[2]: it was free, or the caller held it already (a holder takes its
-- turn again whatever its hold has left, so it never misses a pass for the millisecond in which Redis still counts
-- its expired key as set); 0 when another holds it; -1 when the key had no expiry, which would keep every process
-- from the turn for ever: it is given ARGV[2] as one, and the turn comes back when that runs out.

if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
-- pcall: a key of another type at the turn's name (written by hand) has no holder
if redis.pcall('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if redis.call('PTTL', KEYS[1]) == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return -1
end
return 0
