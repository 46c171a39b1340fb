-- The requests a spider holds, summed where they are (docs/rest.md "The live view"): the lengths of its domain queues,
-- as our services' scripts record them, and its leases. One call a spider, so that a broad crawl's thousands of
-- domain fields are added up in Redis rather than sent to the gateway at every refresh.
--
-- KEYS[1] <spiderid>:queue_lengths   KEYS[2] <spiderid>:leased
local total = 0
for _, length in ipairs(redis.call('HVALS', KEYS[1])) do
  total = total + (tonumber(length) or 0)
end
return total + redis.call('HLEN', KEYS[2])
