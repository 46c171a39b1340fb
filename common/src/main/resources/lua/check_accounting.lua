-- Whether a crawl's accounting can answer for it (docs/operations.md "Mixed Python and Java
-- clusters"): not when the crawl is in crawls:foreign, nor when one of its domain queues has a
-- length other than the one our scripts last left in <spiderid>:queue_lengths (a process that keeps
-- no accounting pushed to or popped from it). A crawl found out is put in crawls:foreign for good:
-- a later push and pop that cancel out must not make its counters look right again.
--
-- KEYS[1] crawls:foreign   KEYS[2] <spiderid>:queue_lengths   KEYS[3..] the crawl's domain queues
-- ARGV[1] <spiderid>:<appid>:<crawlid>   ARGV[2..] the domains of KEYS[3..], in the same order
-- Returns 1 when the accounting agrees with the queues, 0 when it does not. Needs lib/errors.

if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then
  return 0
end
for i = 3, #KEYS do
  -- lengths Redis refuses (a key of another type, written by hand) vouch for nothing
  local recorded = unless_refused(redis.pcall('HGET', KEYS[2], ARGV[i - 1]))
  recorded = recorded ~= nil and tonumber(recorded or '0')
  if redis.call('ZCARD', KEYS[i]) ~= recorded then
    redis.call('SADD', KEYS[1], ARGV[1])
    return 0
  end
end
return 1
