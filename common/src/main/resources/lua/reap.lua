-- Returns leases whose deadline has passed to their queues, with their score. Idempotent: any
-- number of reapers may run it; each lease is returned by exactly one call. Needs the keyspace
-- library, lib/clock, lib/member, lib/accounting, lib/lease, lib/batch. A lease's queue is known only
-- once its id is read, so the queue key is named here with the keyspace library's pattern.
--
-- KEYS[1] <spiderid>:leased   KEYS[2] <spiderid>:leases
-- ARGV[1] spiderid            ARGV[2] most leases handled in this call
-- Returns {returned, handled}: requests put back into a queue, and due leases handled (when
-- handled equals ARGV[2] more may be due). A request whose exact member is already queued again is
-- not duplicated; a lease entry without a request, or with an id we cannot read, is removed. A lease
-- whose queue or whose spider's active domains Redis refuses (a key of another type; docs/operations.md
-- "Keys Redis refuses") stays, with its request out of the queue, due again REFUSED_QUEUE_RETRY_MS later.

local REFUSED_QUEUE_RETRY_MS = 60000
local leased, leases = KEYS[1], KEYS[2]
local spider, most = ARGV[1], tonumber(ARGV[2])
local clock = server_clock()
local batch = new_batch()
local due = redis.call('ZRANGEBYSCORE', leases, '-inf', clock.millis, 'LIMIT', 0, most)
local returned = 0

-- Puts the request of a due lease back into its queue, unless its exact member is queued again already,
-- and marks its domain active; false, with the queue as it was, when Redis refuses the queue or the
-- active domains (a key of another type).
local function put_back(member, domain, score)
  local queue = KEYSPACE.queue(spider, domain)
  local ok, added = pcall(redis.call, 'ZADD', queue, 'NX', score, member)
  if not ok then
    return false
  end
  if not pcall(activate_domain, batch, spider, domain, clock) then
    if added == 1 then
      redis.call('ZREM', queue, member)
    end
    return false
  end
  if added == 1 then
    returned = returned + 1
    queue_length_changed(spider, domain, 1)
  else
    account_or_distrust(account_removed, spider, crawl_fields(member, score), domain, clock)
  end
  return true
end

for _, lease_id in ipairs(due) do
  local member = redis.call('HGET', leased, lease_id)
  -- a removal first: a Redis at its maxmemory refuses a write that may add data only while the call has
  -- written nothing, so the request can go back into its queue then (as in the hand-out and the ack)
  redis.call('ZREM', leases, lease_id)
  local domain, score = lease_parts(lease_id)
  if member and domain ~= nil and tonumber(score) ~= nil and not put_back(member, domain, score) then
    -- kept rather than its request lost, and asked again a minute on, behind the leases due before then
    redis.call('ZADD', leases, clock.millis + REFUSED_QUEUE_RETRY_MS, lease_id)
  else
    redis.call('HDEL', leased, lease_id)
  end
end
return {returned, #due}
