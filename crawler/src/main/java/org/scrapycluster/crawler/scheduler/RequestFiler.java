package org.scrapycluster.crawler.scheduler;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

import org.scrapycluster.common.domain.RegisteredDomain;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.url.RequestFingerprint;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.request.RequestCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Files the requests a page produced — links, a retry, a redirect — into Redis, all of one page in one
 * script call (the original's {@code enqueue_request}, docs/compatibility.md §4.5–4.6, in its order): the
 * crawl's dupefilter {@code <spider>:dupefilter:<crawlid>} unless the request is marked don't-filter;
 * the crawl's {@code domain_max_pages} and the {@code GLOBAL_PAGE_PER_DOMAIN_LIMIT} counters, atomic
 * (docs/compatibility.md W16); the crawl blacklist; the ZooKeeper domain blacklist when {@code SCHEDULER_BACKLOG_BLACKLIST} is
 * off; the crawl's expiry. The target queue is {@code <meta.spiderid>:<registered domain>:queue}, so a
 * spider hands a request to another spider by changing {@code spiderid}. Requests that are not http or
 * https, or whose URL has no valid host ({@code InvalidUrlException}), are refused before Redis; those
 * the {@link DuplicateProbe} finds already in the dupefilter are answered {@code DUPLICATE} without being
 * encoded or sent.
 */
public final class RequestFiler {

    private static final Logger LOG = LoggerFactory.getLogger(RequestFiler.class);

    private final Enqueuer enqueuer;
    private final DuplicateProbe probe;
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

    public RequestFiler(Enqueuer enqueuer, DuplicateProbe probe, RequestCodec codec, String spiderId, Policy policy,
            Predicate<String> domainBlacklisted, CrawlerMetrics metrics) {
        this.enqueuer = enqueuer;
        this.probe = probe;
        this.codec = codec;
        this.spiderId = spiderId;
        this.policy = policy;
        this.domainBlacklisted = domainBlacklisted;
        this.metrics = metrics;
    }

    /** What became of one request, in the order given. */
    public record Filed(CrawlRequest request, EnqueueOutcome outcome) {
    }

    /**
     * Files {@code requests}; completes with each one's outcome, those refused before Redis
     * ({@link EnqueueOutcome#NOT_HTTP}, {@link EnqueueOutcome#INVALID_URL}) first, or exceptionally when Redis cannot be
     * reached. The {@link DuplicateProbe} first picks out the requests that are certainly duplicates;
     * the others are encoded and filed in one script call.
     */
    public CompletableFuture<List<Filed>> file(List<CrawlRequest> requests) {
        List<Candidate> candidates = new ArrayList<>(requests.size());
        List<Filed> refused = new ArrayList<>();
        for (CrawlRequest request : requests) {
            String scheme = scheme(request.url());
            if (!scheme.equals("http") && !scheme.equals("https")) {
                refused.add(new Filed(request, EnqueueOutcome.NOT_HTTP));
                continue;
            }
            try {
                candidates.add(candidate(request, RegisteredDomain.of(request.url())));
            } catch (IllegalArgumentException e) {
                refused.add(new Filed(request, EnqueueOutcome.INVALID_URL));
            }
        }
        List<Candidate> asked = candidates.stream().filter(candidate -> candidate.question() != null).toList();
        return probe.duplicates(asked.stream().map(Candidate::question).toList()).thenCompose(answers -> {
            Set<Candidate> duplicates = Collections.newSetFromMap(new IdentityHashMap<>());
            for (int i = 0; i < asked.size(); i++) {
                if (answers.get(i)) {
                    duplicates.add(asked.get(i));
                }
            }
            List<EnqueueRequest> batch = candidates.stream().filter(candidate -> !duplicates.contains(candidate))
                    .map(this::enqueueRequest).toList();
            return enqueuer.enqueueBatchAsync(batch).thenApply(outcomes -> {
                List<Filed> filed = new ArrayList<>(refused);
                int next = 0;
                for (Candidate candidate : candidates) {
                    EnqueueOutcome outcome = duplicates.contains(candidate) ? EnqueueOutcome.DUPLICATE : outcomes.get(next++);
                    filed.add(new Filed(candidate.request(), outcome));
                }
                for (Filed one : filed) {
                    metrics.enqueued(one.outcome().name().toLowerCase(Locale.ROOT));
                    LOG.atDebug().addKeyValue("url", one.request().url()).addKeyValue("crawlid", one.request().crawlid())
                            .addKeyValue("outcome", one.outcome()).log("Enqueue decision");
                }
                return filed;
            });
        });
    }

    /**
     * A request on its way into Redis: its queue, its dupefilter (unless it skips it) and, when it has
     * one and the crawl fields the enqueue script needs, the question for the {@link DuplicateProbe}.
     */
    private record Candidate(CrawlRequest request, QueueKey queue, EnqueueRequest.Dupefilter dupefilter,
            DuplicateProbe.Question question) {
    }

    private Candidate candidate(CrawlRequest request, String domain) {
        QueueKey queue = new QueueKey(request.spiderid().orElse(spiderId), domain);
        if (request.dontFilter()) {
            return new Candidate(request, queue, null, null);
        }
        EnqueueRequest.Dupefilter dupefilter = new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spiderId, request.crawlid()),
                RequestFingerprint.of(request.method(), request.url(), request.body().getBytes(StandardCharsets.UTF_8)),
                policy.dupefilterTtl());
        Map<String, Object> meta = request.meta();
        boolean accountable = meta.get("appid") instanceof String && meta.get("crawlid") instanceof String
                && meta.get("priority") instanceof Number;
        return new Candidate(request, queue, dupefilter, accountable
                ? new DuplicateProbe.Question(queue.spiderId(), request.appid(), request.crawlid(), expires(meta.get("expires")), dupefilter)
                : null);
    }

    /** {@code expires} as the member's JSON writes it, which is how the enqueue script reads it; 0 when it is not a number. */
    private static String expires(Object value) {
        return switch (value) {
            case BigDecimal decimal -> decimal.toPlainString();
            case Number number -> number.toString();
            case null, default -> "0";
        };
    }

    private EnqueueRequest enqueueRequest(Candidate candidate) {
        CrawlRequest request = candidate.request();
        String domain = candidate.queue().domain();
        String crawlid = request.crawlid();
        EnqueueRequest filed = EnqueueRequest.of(candidate.queue(), codec.encode(request));
        if (candidate.dupefilter() != null) {
            filed = filed.withDupefilter(candidate.dupefilter());
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
