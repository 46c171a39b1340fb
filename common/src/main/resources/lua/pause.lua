-- Pauses a domain's hand-outs for every node sharing its throttle key, unless a pause as long or longer is already
-- in force: a pause only ever lengthens, so the answer to a request sent before a long pause began (a 429 without
-- Retry-After, say) cannot end that pause early (docs/throttling.md, "Servers asking for a pause").
--
-- KEYS[1] <throttlekey>:throttle_pause   ARGV[1] the pause in milliseconds
-- Returns 1 when the pause was set or lengthened, 0 when the pause in force lasts as long or longer. A key without a
-- time to live (written by hand) is no pause to the hand-out, which waits only on a key that expires, so it is replaced.

local left = redis.call('PTTL', KEYS[1])
if left >= tonumber(ARGV[1]) then
  return 0
end
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
return 1
