-- Puts in <spiderid>:active_domains the domains, found by a keyspace scan, whose queue has requests and which are
-- not there (queues written by a component that keeps no index: a Python Kafka monitor), scored and published as
-- the enqueue script does, so that every crawler node learns them from the index. Needs the keyspace library,
-- lib/clock, lib/member, lib/batch.
--
-- KEYS[1] <spiderid>:active_domains
-- ARGV[1] spiderid   ARGV[2..] domains
-- Returns the number of domains put in.

local active, spider = KEYS[1], ARGV[1]
local clock = server_clock()
local batch = new_batch()
local before = redis.call('ZCARD', active)
for i = 2, #ARGV do
  if redis.call('EXISTS', KEYSPACE.queue(spider, ARGV[i])) == 1 then
    activate_domain(batch, spider, ARGV[i], clock)
  end
end
return redis.call('ZCARD', active) - before
