package org.scrapycluster.crawler.scheduler;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

import org.scrapycluster.common.domain.RegisteredDomain;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.logging.SaidOnce;
import org.scrapycluster.common.queue.CrawlFields;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.queue.EnqueueResult;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.url.Fingerprint;
import org.scrapycluster.common.url.RequestFingerprint;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.request.RequestCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Files the requests a page produced — links, a retry, a redirect — into Redis, all of one page in one
 * script call with their dupefilter checks (a page of more than {@value Enqueuer#MOST_PER_CALL} in calls of that
 * many, one after another, {@link Filing}) (the original's {@code enqueue_request}, docs/compatibility.md
 * §4.5–4.6, in its order): the crawl's dupefilter {@code <spider>:dupefilter:<crawlid>} unless the request
 * is marked don't-filter; the crawl's {@code domain_max_pages} and the {@code GLOBAL_PAGE_PER_DOMAIN_LIMIT}
 * counters, atomic (docs/compatibility.md W16); the crawl blacklist; the ZooKeeper domain blacklist when
 * {@code SCHEDULER_BACKLOG_BLACKLIST} is off; the crawl's expiry. The target queue is
 * {@code <meta.spiderid>:<registered domain>:queue}, so a spider hands a request to another spider by
 * changing {@code spiderid}. Each request's crawl fields travel beside its member. Requests that are not
 * http or https, whose URL has no valid host ({@code InvalidUrlException}), whose meta lacks the crawl
 * fields or whose meta holds a value the queue member cannot hold as JSON ({@code INVALID}, docs/extending.md) are
 * refused before Redis, alone: the page's other links are filed; those the {@link DupefilterMemory} knows to be in their dupefilter are
 * answered {@code DUPLICATE} without being encoded or sent, and a page whose links are all such makes no
 * call at all (docs/architecture.md "Filing a page's links").
 */
public final class RequestFiler {

    private static final Logger LOG = LoggerFactory.getLogger(RequestFiler.class);
    /**
     * The most characters of members one call carries (8 Mi): a call holds {@link Enqueuer#MOST_PER_CALL} links of a
     * few hundred bytes each, but a crawl whose {@code attrs} take a megabyte, which every link's member carries, would
     * make it a gigabyte, past Redis's query buffer (1 GB) and most heaps. A member larger than this goes alone.
     */
    private static final long MOST_MEMBER_CHARS_PER_CALL = 8L << 20;

    private final Enqueuer enqueuer;
    private final DupefilterMemory memory;
    private final RequestCodec codec;
    private final String spiderId;
    private final Policy policy;
    private final Predicate<String> domainBlacklisted;
    private final CrawlerMetrics metrics;
    private final Executor encoding;
    private final SaidOnce keysRefused = new SaidOnce("crawl");

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

    /**
     * @param encoding where the calls after a page's first are made (their requests encoded): the node's workers, not
     *                 the Redis client's thread that answered the call before
     */
    public RequestFiler(Enqueuer enqueuer, DupefilterMemory memory, RequestCodec codec, String spiderId, Policy policy,
            Predicate<String> domainBlacklisted, CrawlerMetrics metrics, Executor encoding) {
        this.enqueuer = enqueuer;
        this.memory = memory;
        this.codec = codec;
        this.spiderId = spiderId;
        this.policy = policy;
        this.domainBlacklisted = domainBlacklisted;
        this.metrics = metrics;
        this.encoding = encoding;
    }

    /** What became of one request, in the order given. */
    public record Filed(CrawlRequest request, EnqueueOutcome outcome) {
    }

    /**
     * Files {@code requests}; completes with each one's outcome, those refused before Redis
     * ({@link EnqueueOutcome#NOT_HTTP}, {@link EnqueueOutcome#INVALID_URL}, {@link EnqueueOutcome#INVALID}) first, or exceptionally when Redis cannot be
     * reached.
     */
    public CompletableFuture<List<Filed>> file(List<CrawlRequest> requests) {
        return file(requests, UnaryOperator.identity());
    }

    /**
     * As {@link #file(List)}, with {@code finish} applied to each request just before it is written: to those that go
     * to Redis, not those the dupefilter memory answers (most of a page's links), which is where a page's
     * {@code Referer} is set.
     */
    public CompletableFuture<List<Filed>> file(List<CrawlRequest> requests, UnaryOperator<CrawlRequest> finish) {
        List<Filed> refused = new ArrayList<>();
        List<Candidate> candidates = new ArrayList<>(requests.size());
        DupefilterKeys dupefilters = new DupefilterKeys();
        for (CrawlRequest request : requests) {
            if (!request.isHttp()) {
                refused.add(new Filed(request, EnqueueOutcome.NOT_HTTP));
                continue;
            }
            try {
                candidates.add(candidate(request, dupefilters));
            } catch (IllegalArgumentException e) {
                refused.add(new Filed(request, EnqueueOutcome.INVALID_URL));
            }
        }
        List<Addressed> unsent = new ArrayList<>();
        DupefilterMemory.PageLookup remembered = memory.page();
        for (Iterator<Candidate> each = candidates.iterator(); each.hasNext(); ) {
            Candidate candidate = each.next();
            if (candidate.filtered() && remembered.holds(candidate.dupefilterKey(), candidate.fingerprint().leading64())) {
                continue;
            }
            // the queue only for what goes to Redis: a link the memory answers was queued, so its URL had a domain
            try {
                unsent.add(new Addressed(candidate, new QueueKey(candidate.request().spiderid().orElse(spiderId),
                        RegisteredDomain.of(candidate.request().url()))));
            } catch (IllegalArgumentException e) {
                each.remove();
                refused.add(new Filed(candidate.request(), EnqueueOutcome.INVALID_URL));
            }
        }
        remembered.count();
        return new Filing(candidates, refused, remembered, finish).from(unsent, 0);
    }

    /** A request that goes to Redis unless it cannot be encoded, with its queue. */
    private record Addressed(Candidate candidate, QueueKey queue) {
    }

    /**
     * The calls that file one page's requests: one, nearly always; for a page of more than
     * {@link Enqueuer#MOST_PER_CALL} links, or of links whose members together pass {@link #MOST_MEMBER_CHARS_PER_CALL},
     * one such slice after another, each encoded only when the call before it
     * was answered (on the {@code encoding} executor, not on the Redis client's thread, which every other reply of
     * the node waits for), so that a page of hundreds of thousands of links holds one call's members at a time, not
     * all of them (docs/architecture.md "Filing a page's links").
     */
    private final class Filing {

        private final List<Candidate> candidates;
        private final List<Filed> refused;
        private final DupefilterMemory.PageLookup remembered;
        private final UnaryOperator<CrawlRequest> finish;
        /** Candidates that could not be encoded: refused, not sent (nearly always none, and then no set is made). */
        private Set<Candidate> invalid = Set.of();
        private final List<Candidate> sent = new ArrayList<>();
        private final List<EnqueueOutcome> outcomes = new ArrayList<>();

        Filing(List<Candidate> candidates, List<Filed> refused, DupefilterMemory.PageLookup remembered,
                UnaryOperator<CrawlRequest> finish) {
            this.candidates = candidates;
            this.refused = refused;
            this.remembered = remembered;
            this.finish = finish;
        }

        /** Sends the slice of {@code unsent} from {@code from}, then the next; completes with every outcome. */
        CompletableFuture<List<Filed>> from(List<Addressed> unsent, int from) {
            List<Candidate> slice = new ArrayList<>();
            List<EnqueueRequest> writes = new ArrayList<>();
            int next = from;
            long chars = 0;
            for (; next < unsent.size() && writes.size() < Enqueuer.MOST_PER_CALL && chars < MOST_MEMBER_CHARS_PER_CALL; next++) {
                Addressed addressed = unsent.get(next);
                try {
                    EnqueueRequest write = enqueueRequest(addressed.candidate(), addressed.queue(), finish);
                    writes.add(write);
                    chars += write.member().length();
                    slice.add(addressed.candidate());
                } catch (IllegalArgumentException e) {
                    if (invalid.isEmpty()) {
                        invalid = Collections.newSetFromMap(new IdentityHashMap<>());
                    }
                    invalid.add(addressed.candidate());
                    refused.add(new Filed(addressed.candidate().request(), EnqueueOutcome.INVALID));
                }
            }
            if (writes.isEmpty()) {
                return CompletableFuture.completedFuture(filed());
            }
            int rest = next;
            CompletableFuture<Void> sending = send(slice, writes);
            return rest < unsent.size() ? sending.thenComposeAsync(done -> from(unsent, rest), encoding)
                    : sending.thenApply(done -> filed());
        }

        /**
         * The outcomes in order, counted and logged: those {@code refused}, then each candidate's but those {@code invalid}
         * (refused already), Redis' answer for those {@code sent} and {@code DUPLICATE} for those the memory held.
         */
        private List<Filed> filed() {
            List<Filed> filed = new ArrayList<>(refused.size() + candidates.size());
            filed.addAll(refused);
            int next = 0;
            for (Candidate candidate : candidates) {
                if (invalid.contains(candidate)) {
                    continue;
                }
                boolean wasSent = next < sent.size() && sent.get(next) == candidate;
                filed.add(new Filed(candidate.request(), wasSent ? outcomes.get(next++) : EnqueueOutcome.DUPLICATE));
            }
            boolean debug = LOG.isDebugEnabled();
            for (Filed one : filed) {
                metrics.enqueued(one.outcome());
                if (debug) {
                    LOG.atDebug().addKeyValue("url", one.request().url()).addKeyValue("crawlid", one.request().crawlid())
                            .addKeyValue("outcome", one.outcome()).log("Enqueue decision");
                }
            }
            return filed;
        }

        private CompletableFuture<Void> send(List<Candidate> slice, List<EnqueueRequest> writes) {
            List<Candidate> checked = slice.stream().filter(Candidate::filtered).toList();
            checked.forEach(candidate -> remembered.sending(candidate.dupefilterKey(), candidate.fingerprint().leading64()));
            return enqueuer.fileBatchAsync(writes).whenComplete((results, failure) -> {
                if (failure != null) {
                    checked.forEach(candidate -> memory.failed(candidate.dupefilterKey(), candidate.fingerprint().leading64()));
                }
            }).thenAccept(results -> {
                for (int i = 0; i < slice.size(); i++) {
                    Candidate candidate = slice.get(i);
                    EnqueueResult result = results.get(i);
                    if (candidate.filtered()) {
                        remembered.answered(candidate.dupefilterKey(), candidate.fingerprint().leading64(), result.outcome());
                    }
                    if (result.outcome() == EnqueueOutcome.KEY_CONFLICT) {
                        keyRefused(candidate.request(), result.refusal());
                    }
                    sent.add(candidate);
                    outcomes.add(result.outcome());
                }
            });
        }
    }

    /**
     * Says that Redis refused a key of {@code request} (docs/operations.md "Keys Redis refuses"): at WARN once per crawl,
     * as every request of the crawl to that key is refused until it is repaired, then at DEBUG.
     */
    private void keyRefused(CrawlRequest request, String refusal) {
        keysRefused.say(LOG, Level.WARN, request.appid() + "/" + request.crawlid(), event -> event.addKeyValue("url", request.url())
                        .addKeyValue("appid", request.appid()).addKeyValue("crawlid", request.crawlid()).addKeyValue("error", refusal),
                "Redis refuses a key of a request, which is dropped; so are the crawl's other requests that need the key, until it is repaired");
    }

    /** A request on its way into Redis: unless it skips the dupefilter, the dupefilter's key and its fingerprint. */
    private record Candidate(CrawlRequest request, String dupefilterKey, Fingerprint fingerprint) {

        boolean filtered() {
            return dupefilterKey != null;
        }
    }

    private Candidate candidate(CrawlRequest request, DupefilterKeys dupefilters) {
        if (request.dontFilter()) {
            return new Candidate(request, null, null);
        }
        return new Candidate(request, dupefilters.of(request.crawlid()),
                RequestFingerprint.digest(request.method(), request.url(), request.body().getBytes(StandardCharsets.UTF_8)));
    }

    /** The dupefilter keys of one page's requests, which nearly always share their crawl: each built once. */
    private final class DupefilterKeys {
        private String crawlid;
        private String key;

        String of(String crawlid) {
            if (!crawlid.equals(this.crawlid)) {
                this.crawlid = crawlid;
                this.key = Keyspace.dupefilter(spiderId, crawlid);
            }
            return key;
        }
    }

    private EnqueueRequest enqueueRequest(Candidate candidate, QueueKey queue, UnaryOperator<CrawlRequest> finish) {
        CrawlRequest request = candidate.request();
        String domain = queue.domain();
        String crawlid = request.crawlid();
        Optional<EnqueueRequest.Dupefilter> dupefilter = candidate.filtered()
                ? Optional.of(new EnqueueRequest.Dupefilter(candidate.dupefilterKey(), candidate.fingerprint().hex(),
                        policy.dupefilterTtl()))
                : Optional.empty();
        EnqueueRequest filed = new EnqueueRequest(queue, codec.encode(finish.apply(request)), CrawlFields.of(request.meta()),
                dupefilter, false, List.of(), false);
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
}
