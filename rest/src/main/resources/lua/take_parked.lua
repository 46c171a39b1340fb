-- Takes a parked answer the caller has read (GET): deletes it if it is still the answer read, so that of callers
-- polling for the same uuid at the same moment one alone takes it. The read comes first and alone, so that a call
-- Redis runs only after the caller gave up on it (Redis stalled) deletes nothing the caller did not read
-- (docs/rest.md, "Endpoints").
--
-- KEYS[1] rest:poll:<uuid>
-- ARGV[1] the SHA-1 of the answer read, in hex
-- Returns 1 when this call took the answer, 0 when another had taken it (or parked another since).

local answer = redis.call('GET', KEYS[1])
if answer and redis.sha1hex(answer) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
