-- Deletes a job that was handled, and its failure count, unless the job key was written again
-- meanwhile (a newer request of the same shape, docs/compatibility.md §2.5): that one stays to be answered.
--
-- KEYS[1] the job key   KEYS[2] lock:<job key>:failures
-- ARGV[1] the value the job was handled with
-- Returns 1 when the job key was deleted, 0 when it holds a newer value (or is gone).

redis.call('DEL', KEYS[2])
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
