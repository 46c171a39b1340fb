-- Renews or releases a lock only while it still holds the caller's token.
--
-- KEYS[1] lock:<key>   ARGV[1] token   ARGV[2] new expiry in milliseconds, "0" to release
-- Returns 1 when done, 0 when the lock is not (any more) held with this token.

if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if tonumber(ARGV[2]) > 0 then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return redis.call('DEL', KEYS[1])
