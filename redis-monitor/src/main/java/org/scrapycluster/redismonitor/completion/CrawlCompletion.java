package org.scrapycluster.redismonitor.completion;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CompletedCrawl;
import org.scrapycluster.common.queue.CrawlCounts;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.queue.Retirement;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisLock;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.common.redis.RefusedKeys;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.service.Interrupts;
import org.scrapycluster.redismonitor.info.QueueScan;
import org.scrapycluster.redismonitor.job.Answer;
import org.scrapycluster.redismonitor.outbound.OutboundPublisher;
import org.scrapycluster.redismonitor.outbound.OutboundUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Announces each crawl that is done — nothing queued and nothing leased for
 * {@code CRAWL_COMPLETE_QUIET_SECONDS} — once, on the outbound topic(s):
 * {@code {"action":"complete","appid","crawlid","spiderid","server_time","total_pages"}}, where
 * {@code total_pages} counts the pages its crawlers published (issue #193 of the original).
 *
 * <p>Candidates are the crawls of {@code crawls:active} whose last activity (for a foreign crawl found drained, the time
 * it is to be looked at again) is older than the quiet period (on the Redis server's clock). Each is retired with one
 * atomic script that succeeds
 * only if the crawl is still active, still quiet, has nothing pending and has not expired, so among
 * any number of Redis monitors exactly one announces it. A quiet crawl that still has requests pending (no crawler
 * takes them: crawlers scaled to 0, or its domains blacklisted or paused) is made active again by the same script, so
 * that it is looked at again a quiet period later, not at every check of every monitor (docs/redis-monitor.md
 * "complete"). An expired crawl (its timeout key holds a
 * time the server's clock has reached) is left to the expire job even when crawlers' hand-outs have
 * already dropped all its requests: it is announced {@code expired}, as the original announces it,
 * not {@code complete}. A retired crawl whose {@code expires} is still ahead keeps its timeout key: at that time the
 * expire job announces it {@code expired} too, as the original announces every crawl with an {@code expires}, and
 * purges what later seeds of it queued; the accounting the retirement leaves says nothing is pending, so that this
 * purge reads no queue.
 * The same script files the announcement in {@code crawls:completed}, which every check sends
 * first. An announcement leaves that list only once Kafka has taken it: one Kafka does not take, or
 * refuses, or whose send the monitor did not live to see the end of, stays there for the next check
 * of any monitor, across restarts (sent twice at worst, never lost). One monitor at a time sends the
 * list, holding {@code lock:crawls:completed}, so that two do not send the same announcement; the
 * others leave it to that one.
 *
 * <p>A crawl whose accounting cannot answer for it (a Python crawler or Kafka monitor moved its
 * requests: docs/operations.md "Mixed Python and Java clusters") is judged by reading the queues and
 * leases instead: it is announced when two checks at least {@code CRAWL_COMPLETE_FOREIGN_QUIET_SECONDS} apart both find
 * nothing of it and its dupefilter no larger at the second, since a Python crawler's activity leaves no trace in
 * {@code crawls:active}, and the request it fetches none in Redis; a page it fetched between the checks filed its links
 * in the dupefilter.
 *
 * <p>A crawl whose keys Redis refuses (an accounting hash of another type, hand-edited) is logged once and
 * passed over, and the crawls after it are judged (docs/operations.md "Keys Redis refuses").
 */
public final class CrawlCompletion implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CrawlCompletion.class);
    private static final int PAGE = 500;

    private final RedisConnection redis;
    private final RedisLocks locks;
    private final CrawlCounts counts;
    private final QueueScan scan;
    private final OutboundPublisher outbound;
    private final Duration quiet;
    /** How much later than a quiet period a foreign crawl found drained is looked at again. */
    private final Duration foreignLookAgain;
    private final Counter completed;
    private final OutageReporter outage = new OutageReporter(LOG, "Crawl completion check");
    private final RefusedKeys refused = new RefusedKeys(LOG, "The crawl completion check");
    private final Ticker ticker = new Ticker("redis-monitor-completion");

    /**
     * @param locks elect the one monitor that sends {@code crawls:completed}
     * @param quiet        how long a crawl must have had nothing pending
     * @param foreignQuiet how long a foreign crawl must have shown nothing queued or leased: a Python crawler holds the
     *                     request it fetches in no key, so this outlasts its fetch; the quiet period when that is longer
     */
    public CrawlCompletion(RedisConnection redis, RedisLocks locks, OutboundPublisher outbound, Duration quiet, Duration foreignQuiet,
            MeterRegistry meters) {
        if (quiet.isNegative()) {
            throw new IllegalArgumentException("the quiet period cannot be negative, got " + quiet);
        }
        this.foreignLookAgain = foreignQuiet.compareTo(quiet) > 0 ? foreignQuiet.minus(quiet) : Duration.ZERO;
        this.redis = redis;
        this.locks = locks;
        this.counts = new CrawlCounts(redis);
        this.scan = new QueueScan(redis);
        this.outbound = outbound;
        this.quiet = quiet;
        this.completed = Counter.builder("redis.monitor.crawls.completed").description("Crawls announced as complete").register(meters);
    }

    /** Checks every {@code period} in the background. */
    public void start(Duration period) {
        ticker.every(period, period, this::checkQuietly);
    }

    /**
     * Announces every crawl that is done now, after those retired earlier that no Kafka took; while
     * another monitor sends {@code crawls:completed}, the crawls this one retires are left to it (or to
     * the next check).
     *
     * @throws RedisException               when Redis is unreachable
     * @throws OutboundUnavailableException when Kafka did not take an announcement (it stays in
     *                                      {@code crawls:completed}, with those after it)
     * @throws org.apache.kafka.common.KafkaException when Kafka refused an announcement for good (it
     *                                      stays all the same, to be sent once what Kafka refused is mended)
     */
    public synchronized void announce() throws OutboundUnavailableException {
        sendCompleted();
        Instant now = redis.serverTime();
        Instant quietBefore = now.minus(quiet);
        long offset = 0;
        List<CrawlRef> page;
        do {
            page = counts.quietSince(quietBefore, offset, PAGE);
            Map<CrawlRef, CompletableFuture<Retirement>> retired = new LinkedHashMap<>();
            for (CrawlRef crawl : page) {
                if (!refused.run(crawl.accountingKey(), () -> check(crawl, now, quietBefore).ifPresent(retiring -> retired.put(crawl, retiring)))) {
                    offset++; // refused: it stays among the quiet crawls
                }
            }
            for (Map.Entry<CrawlRef, CompletableFuture<Retirement>> retiring : retired.entrySet()) {
                Optional<Retirement> retirement = refused.await(redis, retiring.getKey().accountingKey(), retiring.getValue());
                if (retirement.isEmpty() || retirement.get() instanceof Retirement.Kept) {
                    offset++; // neither retired, forgotten nor made active again: it stays among the quiet crawls
                }
            }
        } while (page.size() == PAGE);
        sendCompleted();
    }

    /**
     * Judges one quiet crawl: the retirement under way when it may be done, else nothing (a foreign crawl found busy, or
     * drained for the first time, is made active again). The retire script makes a crawl whose accounting answers for it
     * active again when it still has requests pending, so that a crawl no crawler takes requests of (crawlers scaled to
     * 0, its domains blacklisted or paused) costs one check per quiet period among all monitors, not one per check of
     * each monitor.
     */
    private Optional<CompletableFuture<Retirement>> check(CrawlRef crawl, Instant now, Instant quietBefore) {
        if (!counts.foreign(crawl)) {
            return Optional.of(counts.retireIfIdleAsync(crawl, quietBefore, false));
        }
        if (scan.crawl(crawl).isPresent()) {
            counts.busy(crawl, now);
        } else if (counts.drained(crawl, now.plus(foreignLookAgain))) {
            return Optional.of(counts.retireIfIdleAsync(crawl, quietBefore, true));
        }
        return Optional.empty();
    }

    /**
     * Sends the announcements of {@code crawls:completed}, oldest first, each taken off the list only once Kafka has
     * taken it; nothing when the list is empty or another monitor holds the lock on it (it sends them). A lock lost
     * meanwhile (this monitor stalled past its expiry) stops the sending after the announcement under way.
     */
    private void sendCompleted() throws OutboundUnavailableException {
        if (counts.oldestCompleted().isEmpty()) {
            return;
        }
        Optional<RedisLock> lock = locks.tryAcquire(Keyspace.COMPLETED_SENDER_LOCK);
        if (lock.isEmpty()) {
            return;
        }
        try (RedisLock sending = lock.get()) {
            Optional<CompletedCrawl> next;
            while (sending.isHeld() && (next = counts.oldestCompleted()).isPresent()) {
                outbound.publish(List.of(announcement(next.get())));
                CompletedCrawl sent = next.get();
                // Kafka has it: a stop's interrupt must not leave it on the list, to be sent a second time
                Interrupts.putAside(() -> counts.announced(sent));
                completed.increment();
            }
        }
    }

    private Answer announcement(CompletedCrawl done) {
        CrawlRef crawl = done.crawl();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("action", "complete");
        answer.put("appid", crawl.appid());
        answer.put("crawlid", crawl.crawlid());
        answer.put("spiderid", crawl.spiderId());
        // the clock start_time was stamped by: with the monitor's, a skew between the hosts would skew the crawl's length
        answer.put("server_time", redis.serverTime().getEpochSecond());
        answer.put("total_pages", done.pages());
        answer.put("start_time", done.started().isPresent() ? done.started().getAsLong() : null);
        return new Answer(crawl.appid(), answer, "Sent crawl complete to kafka");
    }

    private void checkQuietly() {
        try {
            announce();
            outage.succeeded();
        } catch (RedisException e) {
            outage.failed(e);
        } catch (OutboundUnavailableException e) {
            LOG.debug("Completion announcements wait for Kafka: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("Crawl completion check failed", e);
        }
    }

    /**
     * Stops the checks, interrupting one in progress. Not under the lock a check holds, so that a check waiting for
     * Redis is cut short rather than waited for.
     */
    @Override
    public void close() {
        ticker.close();
    }

    /** Closes as {@link #close()} does, waiting at most {@code wait} for a check in progress to end. */
    public void close(Duration wait) {
        ticker.close(wait);
    }
}
