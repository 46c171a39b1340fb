package org.scrapycluster.crawler.scheduler;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

import org.scrapycluster.common.domain.RegisteredDomain;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.Keyspace;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.url.RequestFingerprint;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.request.RequestCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Files the requests a page produced — links, a retry, a redirect — into Redis, all of one page in one
 * script call (the original's {@code enqueue_request}, behaviour spec §4.5–4.6, in its order): the
 * crawl's dupefilter {@code <spider>:dupefilter:<crawlid>} unless the request is marked don't-filter;
 * the crawl's {@code domain_max_pages} and the {@code GLOBAL_PAGE_PER_DOMAIN_LIMIT} counters, atomic
 * (W16); the crawl blacklist; the ZooKeeper domain blacklist when {@code SCHEDULER_BACKLOG_BLACKLIST} is
 * off; the crawl's expiry. The target queue is {@code <meta.spiderid>:<registered domain>:queue}, so a
 * spider hands a request to another spider by changing {@code spiderid}. Requests that are not http or
 * https, or whose URL has no valid host ({@code InvalidUrlException}), are refused before Redis.
 */
public final class RequestFiler {

    private static final Logger LOG = LoggerFactory.getLogger(RequestFiler.class);

    private final Enqueuer enqueuer;
    private final RequestCodec codec;
    private final String spiderId;
    private final Policy policy;
    private final Predicate<String> domainBlacklisted;
    private final CrawlerMetrics metrics;

    /**
     * What the filters are set to.
     *
     * @param dupefilterTtl          {@code DUPEFILTER_TIMEOUT}
     * @param domainMaxPageTtl       {@code DOMAIN_MAX_PAGE_TIMEOUT}
     * @param globalPageLimit        {@code GLOBAL_PAGE_PER_DOMAIN_LIMIT}, 0 for none
     * @param globalPageLimitTtl     {@code GLOBAL_PAGE_PER_DOMAIN_LIMIT_TIMEOUT}
     * @param keepBlacklistedBacklog {@code SCHEDULER_BACKLOG_BLACKLIST}
     */
    public record Policy(Duration dupefilterTtl, Duration domainMaxPageTtl, long globalPageLimit, Duration globalPageLimitTtl,
            boolean keepBlacklistedBacklog) {
    }

    public RequestFiler(Enqueuer enqueuer, RequestCodec codec, String spiderId, Policy policy, Predicate<String> domainBlacklisted,
            CrawlerMetrics metrics) {
        this.enqueuer = enqueuer;
        this.codec = codec;
        this.spiderId = spiderId;
        this.policy = policy;
        this.domainBlacklisted = domainBlacklisted;
        this.metrics = metrics;
    }

    /** What became of one request, in the order given. */
    public record Filed(CrawlRequest request, String outcome) {
    }

    /**
     * Files {@code requests}; completes with each one's outcome ({@link EnqueueOutcome} names, or
     * {@code NOT_HTTP} / {@code INVALID_URL}), or exceptionally when Redis cannot be reached.
     */
    public CompletableFuture<List<Filed>> file(List<CrawlRequest> requests) {
        List<EnqueueRequest> batch = new ArrayList<>(requests.size());
        List<CrawlRequest> batched = new ArrayList<>(requests.size());
        List<Filed> refused = new ArrayList<>();
        for (CrawlRequest request : requests) {
            String scheme = scheme(request.url());
            if (!scheme.equals("http") && !scheme.equals("https")) {
                refused.add(new Filed(request, "NOT_HTTP"));
                continue;
            }
            try {
                batch.add(enqueueRequest(request, RegisteredDomain.of(request.url())));
                batched.add(request);
            } catch (IllegalArgumentException e) {
                refused.add(new Filed(request, "INVALID_URL"));
            }
        }
        return enqueuer.enqueueBatchAsync(batch).thenApply(outcomes -> {
            List<Filed> filed = new ArrayList<>(refused);
            for (int i = 0; i < outcomes.size(); i++) {
                filed.add(new Filed(batched.get(i), outcomes.get(i).name()));
            }
            for (Filed one : filed) {
                metrics.enqueued(one.outcome().toLowerCase(Locale.ROOT));
                LOG.atDebug().addKeyValue("url", one.request().url()).addKeyValue("crawlid", one.request().crawlid())
                        .addKeyValue("outcome", one.outcome()).log("Enqueue decision");
            }
            return filed;
        });
    }

    private EnqueueRequest enqueueRequest(CrawlRequest request, String domain) {
        String crawlid = request.crawlid();
        QueueKey queue = new QueueKey(request.spiderid().orElse(spiderId), domain);
        EnqueueRequest filed = EnqueueRequest.of(queue, codec.encode(request));
        if (!request.dontFilter()) {
            filed = filed.withDupefilter(new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spiderId, crawlid),
                    RequestFingerprint.of(request.method(), request.url(), request.body().getBytes(StandardCharsets.UTF_8)),
                    policy.dupefilterTtl()));
        }
        long domainMaxPages = request.number("domain_max_pages", 0);
        if (domainMaxPages > 0) {
            filed = filed.withPageLimit(EnqueueRequest.PageLimit.perCrawl(
                    Keyspace.domainMaxPageFilter(spiderId, domain, crawlid), domainMaxPages, policy.domainMaxPageTtl()));
        }
        if (policy.globalPageLimit() > 0) {
            filed = filed.withPageLimit(EnqueueRequest.PageLimit.global(
                    Keyspace.globalPageCountFilter(spiderId, domain, crawlid), policy.globalPageLimit(), policy.globalPageLimitTtl()));
        }
        if (!policy.keepBlacklistedBacklog() && domainBlacklisted.test(domain)) {
            filed = filed.withDomainRefused();
        }
        return filed;
    }

    private static String scheme(String url) {
        int colon = url.indexOf(':');
        return colon < 0 ? "" : url.substring(0, colon).toLowerCase(Locale.ROOT);
    }
}
