package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.domain.RegisteredDomain;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.ManualClock;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.request.RequestCodec;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** What becomes of the requests a page produced, in the original's order of checks, against a private redis-server. */
class RequestFilerTest {

    private static final RequestFiler.Policy POLICY = new RequestFiler.Policy(Duration.ofMinutes(10), Duration.ofMinutes(10), 0,
            Duration.ofMinutes(10), true);

    private static final RedisConnection redis = PrivateRedis.connection();

    private final String spider = "filer" + System.nanoTime();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final ManualClock clock = new ManualClock();

    /** A filer that asks Redis about every request: it remembers no fingerprint. */
    private RequestFiler filer(RequestFiler.Policy policy, Set<String> blacklistedDomains) {
        return filer(policy, blacklistedDomains, new DupefilterMemory(0, policy.dupefilterTtl(), clock));
    }

    private RequestFiler filer(RequestFiler.Policy policy, Set<String> blacklistedDomains, DupefilterMemory memory) {
        return filer(policy, blacklistedDomains, memory, Runnable::run);
    }

    /** A filer that remembers no fingerprint and makes the calls after a page's first on {@code encoding}. */
    private RequestFiler filer(Executor encoding) {
        return filer(POLICY, Set.of(), new DupefilterMemory(0, POLICY.dupefilterTtl(), clock), encoding);
    }

    private RequestFiler filer(RequestFiler.Policy policy, Set<String> blacklistedDomains, DupefilterMemory memory, Executor encoding) {
        return new RequestFiler(new Enqueuer(redis, false), memory, new RequestCodec(), spider, policy,
                blacklistedDomains::contains, new CrawlerMetrics(registry, spider, "n1"), encoding);
    }

    private static CrawlRequest request(String url, Map<String, Object> extra) {
        Map<String, Object> meta = new HashMap<>(Map.of("appid", "app", "crawlid", "c1", "priority", -9, "expires", 0,
                "curdepth", 1, "retry_times", 0));
        meta.putAll(extra);
        return CrawlRequest.get(url, meta);
    }

    private static List<String> outcomes(List<RequestFiler.Filed> filed) {
        return filed.stream().map(one -> one.request().url() + " " + one.outcome()).toList();
    }

    @Test
    void refusesWhatIsNotHttpBeforeRedisThenFilesTheRestInOrder() throws Exception {
        List<RequestFiler.Filed> filed = filer(POLICY, Set.of()).file(List.of(
                request("http://alpha.com/1", Map.of()),
                request("ftp://alpha.com/file", Map.of()),
                request("http://alpha.com/2", Map.of()),
                request("http://bad host/", Map.of()))).get();

        assertEquals(List.of("ftp://alpha.com/file NOT_HTTP", "http://bad host/ INVALID_URL", "http://alpha.com/1 QUEUED",
                "http://alpha.com/2 QUEUED"), outcomes(filed));
        assertEquals(2L, redis.sync().zcard(spider + ":alpha.com:queue"));
        assertEquals(1.0, registry.get("crawler.enqueued").tag("outcome", "not_http").counter().count());
    }

    @Test
    void aLinkWhoseMetaCannotBeWrittenIsRefusedAloneAndTheOthersFiled() throws Exception {
        List<RequestFiler.Filed> filed = filer(POLICY, Set.of()).file(List.of(
                request("http://alpha.com/1", Map.of()),
                request("http://alpha.com/unwritable", Map.of("handle", new Object())),
                request("http://alpha.com/2", Map.of()))).get();

        assertEquals(List.of("http://alpha.com/unwritable INVALID", "http://alpha.com/1 QUEUED", "http://alpha.com/2 QUEUED"),
                outcomes(filed));
        assertEquals(2L, redis.sync().zcard(spider + ":alpha.com:queue"));
        assertEquals(1.0, registry.get("crawler.enqueued").tag("outcome", "invalid").counter().count());
    }

    @Test
    void aPageOfMoreLinksThanOneCallTakesIsFiledInCallsOneAfterAnotherWithEveryOutcomeInOrder() throws Exception {
        List<CrawlRequest> links = new ArrayList<>();
        for (int link = 0; link < 2 * Enqueuer.MOST_PER_CALL + 500; link++) {
            links.add(link == 1_500 ? request("http://alpha.com/unwritable", Map.of("handle", new Object()))
                    : link == 2_200 ? request("http://alpha.com/10", Map.of()) : request("http://alpha.com/" + link, Map.of()));
        }
        CountedHops encoding = new CountedHops();

        List<String> outcomes = outcomes(filer(encoding).file(links).get());

        assertEquals(2, encoding.hops.get(), "the second and third calls are made on the executor given");

        assertEquals(links.size(), outcomes.size());
        assertEquals("http://alpha.com/unwritable INVALID", outcomes.getFirst(), "refused before Redis, first");
        assertEquals("http://alpha.com/0 QUEUED", outcomes.get(1));
        assertEquals("http://alpha.com/1501 QUEUED", outcomes.get(1_501), "the second call's, after the refused one");
        assertEquals("http://alpha.com/10 DUPLICATE", outcomes.get(2_200), "the third call's, a link the first call filed");
        assertEquals("http://alpha.com/2499 QUEUED", outcomes.getLast());
        assertEquals(links.size() - 2L, redis.sync().zcard(spider + ":alpha.com:queue"));
    }

    @Test
    void linksWhoseMembersCarryHalfAMegabyteOfAttrsEachAreFiledAFewACall() throws Exception {
        Map<String, Object> attrs = Map.of("blob", "x".repeat(1 << 19));
        List<CrawlRequest> links = new ArrayList<>();
        for (int link = 0; link < 20; link++) {
            links.add(request("http://alpha.com/" + link, Map.of("attrs", attrs)));
        }
        CountedHops encoding = new CountedHops();

        List<String> outcomes = outcomes(filer(encoding).file(links).get());

        assertEquals(1, encoding.hops.get(), "8 Mi characters of members a call: 16 links, then 4");
        assertEquals(20, outcomes.stream().filter(outcome -> outcome.endsWith(" QUEUED")).count());
        assertEquals(20L, redis.sync().zcard(spider + ":alpha.com:queue"));
    }

    @Test
    void aLinkSeenBeforeIsADuplicateUnlessMarkedDontFilter() throws Exception {
        RequestFiler filer = filer(POLICY, Set.of());
        filer.file(List.of(request("http://alpha.com/page?b=2&a=1", Map.of()))).get();

        List<RequestFiler.Filed> again = filer.file(List.of(
                request("http://alpha.com/page?a=1&b=2#top", Map.of()),
                request("http://alpha.com/page?b=2&a=1", Map.of()).withDontFilter(true),
                request("http://alpha.com/page?b=2&a=1", Map.of("crawlid", "c2")))).get();

        assertEquals(List.of("http://alpha.com/page?a=1&b=2#top DUPLICATE", "http://alpha.com/page?b=2&a=1 QUEUED",
                "http://alpha.com/page?b=2&a=1 QUEUED"), outcomes(again), "canonical URL per crawl; a retry skips the dupefilter");
    }

    @Test
    void aRememberedDuplicateIsAnsweredWithoutRedisForHalfTheDupefilterExpiry() throws Exception {
        RequestFiler filer = filer(POLICY, Set.of(), new DupefilterMemory(1000, POLICY.dupefilterTtl(), clock));
        redis.sync().sadd(spider + ":blacklist", "app||stopped");
        assertEquals(List.of("http://alpha.com/1 QUEUED", "http://alpha.com/2 BLACKLISTED"), outcomes(filer.file(List.of(
                request("http://alpha.com/1", Map.of()), request("http://alpha.com/2", Map.of("crawlid", "stopped")))).get()));
        redis.sync().del(spider + ":dupefilter:c1");

        assertEquals(List.of("http://alpha.com/1 DUPLICATE", "http://alpha.com/2 BLACKLISTED", "http://alpha.com/3 QUEUED"),
                outcomes(filer.file(List.of(request("http://alpha.com/1", Map.of()), request("http://alpha.com/2", Map.of("crawlid", "stopped")),
                        request("http://alpha.com/3", Map.of()))).get()),
                "the first is remembered (Redis, whose dupefilter was emptied, was not asked); a refused one is not");
        assertEquals(List.of("http://alpha.com/1 DUPLICATE"), outcomes(filer.file(List.of(request("http://alpha.com/1", Map.of()))).get()));

        clock.advance(POLICY.dupefilterTtl().dividedBy(2));
        assertEquals(List.of("http://alpha.com/1 ALREADY_QUEUED"), outcomes(filer.file(List.of(request("http://alpha.com/1", Map.of()))).get()),
                "past half the expiry Redis is asked again, and renews the dupefilter");
        assertEquals(List.of("http://alpha.com/1 DUPLICATE"), outcomes(filer.file(List.of(request("http://alpha.com/1", Map.of()))).get()));
    }

    @Test
    void aRequestWithoutCrawlFieldsIsInvalid() throws Exception {
        assertEquals(List.of("http://alpha.com/1 INVALID"),
                outcomes(filer(POLICY, Set.of()).file(List.of(request("http://alpha.com/1", Map.of("priority", "high")))).get()));
        assertEquals(0L, redis.sync().exists(spider + ":alpha.com:queue"));
    }

    @Test
    void theCrawlsDomainPageLimitCountsEveryFiledRequest() throws Exception {
        RequestFiler filer = filer(POLICY, Set.of());

        List<RequestFiler.Filed> filed = filer.file(List.of(
                request("http://alpha.com/1", Map.of("domain_max_pages", 3)),
                request("http://alpha.com/2", Map.of("domain_max_pages", 3)),
                request("http://alpha.com/3", Map.of("domain_max_pages", 3)),
                request("http://beta.com/1", Map.of("domain_max_pages", 3)))).get();

        assertEquals(List.of("http://alpha.com/1 QUEUED", "http://alpha.com/2 QUEUED", "http://alpha.com/3 PAGE_LIMIT", "http://beta.com/1 QUEUED"),
                outcomes(filed), "with the seed, at most 3 pages of a domain: 2 discovered requests");
    }

    @Test
    void aLinkWhosePageCounterRedisRefusesIsDroppedAloneAndSaidOncePerCrawl() throws Exception {
        redis.sync().set(Keyspace.domainMaxPageFilter(spider, RegisteredDomain.of("http://alpha.com/"), "c1"), "edited by hand");
        RequestFiler filer = filer(POLICY, Set.of());

        try (CapturedLog log = CapturedLog.start(RequestFiler.class, Level.DEBUG)) {
            List<RequestFiler.Filed> filed = filer.file(List.of(
                    request("http://alpha.com/1", Map.of("domain_max_pages", 3)),
                    request("http://alpha.com/2", Map.of("domain_max_pages", 3)),
                    request("http://beta.com/1", Map.of("domain_max_pages", 3)))).get();

            assertEquals(List.of("http://alpha.com/1 KEY_CONFLICT", "http://alpha.com/2 KEY_CONFLICT", "http://beta.com/1 QUEUED"),
                    outcomes(filed), "the other domain's link is filed");
            List<String> warnings = log.events().stream().filter(event -> event.getLevel() == Level.WARN)
                    .map(ILoggingEvent::getFormattedMessage).toList();
            assertEquals(List.of("Redis refuses a key of a request, which is dropped; so are the crawl's other requests that need the key, "
                    + "until it is repaired, said once per crawl"), warnings);
            assertEquals(2.0, registry.get("crawler.enqueued").tag("outcome", "key_conflict").counter().count());
        }
    }

    @Test
    void aStoppedCrawlABlacklistedDomainAndAnExpiredCrawlAreRefused() throws Exception {
        redis.sync().sadd(spider + ":blacklist", "app||stopped");
        RequestFiler refusing = filer(new RequestFiler.Policy(Duration.ofMinutes(10), Duration.ofMinutes(10), 0, Duration.ofMinutes(10),
                false), Set.of("black.com"));

        List<RequestFiler.Filed> filed = refusing.file(List.of(
                request("http://alpha.com/x", Map.of("crawlid", "stopped")),
                request("http://black.com/x", Map.of()),
                request("http://alpha.com/old", Map.of("expires", 1_000_000_000)),
                request("http://alpha.com/new", Map.of("expires", 4_000_000_000L)))).get();

        assertEquals(List.of("http://alpha.com/x BLACKLISTED", "http://black.com/x DOMAIN_BLACKLISTED", "http://alpha.com/old EXPIRED",
                "http://alpha.com/new QUEUED"), outcomes(filed));
        assertEquals(List.of("http://black.com/x DUPLICATE", "http://black.com/y QUEUED"),
                outcomes(filer(POLICY, Set.of("black.com")).file(List.of(request("http://black.com/x", Map.of()),
                        request("http://black.com/y", Map.of()))).get()),
                "a refused request is still in the dupefilter, as in the original's order; with SCHEDULER_BACKLOG_BLACKLIST a"
                        + " blacklisted domain's requests are kept for later");
    }

    @Test
    void aRequestGoesToTheQueueOfTheSpiderItNames() throws Exception {
        filer(POLICY, Set.of()).file(List.of(request("http://www.alpha.com:8080/x", Map.of("spiderid", spider + "other")))).get();

        assertEquals(1L, redis.sync().zcard(spider + "other:alpha.com:queue"));
        assertEquals(Double.valueOf(9), redis.sync().zscore(spider + "other:alpha.com:queue",
                redis.sync().zrange(spider + "other:alpha.com:queue", 0, 0).get(0)), "score is minus the crawl priority");
    }

    /** Runs each task at once, counting them: how many calls of a page were made after its first. */
    private static final class CountedHops implements Executor {
        final AtomicInteger hops = new AtomicInteger();

        @Override
        public void execute(Runnable task) {
            hops.incrementAndGet();
            task.run();
        }
    }
}
