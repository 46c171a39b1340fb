-- Files one request into its domain queue with readiness and crawl accounting, in one call: used
-- by the Kafka monitor for seeds and by crawlers for discovered links, retries, redirects and
-- returned requests. Needs lib/clock, lib/member, lib/accounting, lib/enqueue.
--
-- KEYS[1] <spiderid>:<domain>:queue   KEYS[2] <spiderid>:active_domains   KEYS[3] <spiderid>:blacklist
-- ARGV[1] member (JSON, either shape)  ARGV[2] spiderid   ARGV[3] domain
-- ARGV[4] "1" to order equal priorities first-in first-out (score = -priority + arrival fraction)
-- ARGV[5] dupefilter key, "" for none  ARGV[6] request fingerprint   ARGV[7] dupefilter TTL seconds
-- ARGV[8] "1" to SET timeout:<spiderid>:<appid>:<crawlid> to the crawl's expires when it is not 0
--
-- Returns the outcome of lib/enqueue's enqueue_request.

return enqueue_request(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4] == '1', 0,
  ARGV[5], ARGV[6], ARGV[7], ARGV[8] == '1', server_clock())
