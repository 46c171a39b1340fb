-- Forgets the accounting of a crawl that has nothing queued or leased (after its completion was
-- announced). Does nothing when the crawl has pending requests again.
--
-- KEYS[1] crawl:<spiderid>:<appid>:<crawlid>   KEYS[2] crawls:<spiderid>:<appid>   KEYS[3] crawls:active
-- ARGV[1] crawlid   ARGV[2] <spiderid>:<appid>:<crawlid>
-- Returns 1 when the crawl was retired, 0 when it still has pending requests.

if (tonumber(redis.call('HGET', KEYS[1], 'pending') or '0') or 0) > 0 then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[2])
return 1
