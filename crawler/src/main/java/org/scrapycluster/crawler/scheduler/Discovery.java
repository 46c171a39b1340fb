package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.ActiveDomains;
import org.scrapycluster.common.queue.QueueDirectory;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RefusedKeys;
import org.scrapycluster.common.redis.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the domains of a spider that have work (docs/architecture.md "Readiness and discovery"): every
 * {@code interval} it reads what changed in {@code <spiderid>:active_domains} since its last look —
 * O(log n + new), so a seed fed to an idle cluster is seen within that interval — and every
 * {@code scanPeriod} it scans the keyspace for {@code <spiderid>:*:queue}, for queues written by
 * components that keep no active-domain index (a Python Kafka monitor). Found domains go to the
 * scheduler, which ignores those it already knows. An active-domain index Redis refuses (of another type, written by
 * hand) is logged once and left to the keyspace scan, which still finds the queues (docs/operations.md "Keys Redis
 * refuses").
 */
public final class Discovery implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Discovery.class);
    private static final int PAGE = 1000;

    private final String spiderId;
    private final ActiveDomains activeDomains;
    private final QueueDirectory directory;
    private final Duration interval;
    private final long scanEveryNanos;
    private final Consumer<List<String>> found;
    private final OutageReporter outage = new OutageReporter(LOG, "Queue discovery");
    private final RefusedKeys refused = new RefusedKeys(LOG, "Queue discovery");
    private final Ticker ticker;
    private ActiveDomains.Cursor cursor = ActiveDomains.Cursor.START;
    private long scannedAt;
    private boolean scanned;

    /**
     * @param redis      the connection
     * @param spiderId   the spider whose queues to find
     * @param interval   how often active domains are read
     * @param scanPeriod how often the keyspace is scanned ({@code SCHEDULER_QUEUE_REFRESH})
     * @param found      receives found domains
     */
    public Discovery(RedisConnection redis, String spiderId, Duration interval, Duration scanPeriod, Consumer<List<String>> found) {
        this.spiderId = spiderId;
        this.activeDomains = new ActiveDomains(redis);
        this.directory = new QueueDirectory(redis);
        this.interval = interval;
        this.scanEveryNanos = scanPeriod.toNanos();
        this.found = found;
        this.ticker = new Ticker("crawler-discovery-" + spiderId);
    }

    /** Starts looking in the background, at once. */
    public void start() {
        ticker.every(Duration.ZERO, interval, this::tick);
    }

    /** One look: what became active, and a scan when one is due. */
    synchronized void lookOnce() {
        readActiveDomains();
        long now = System.nanoTime();
        if (!scanned || now - scannedAt >= scanEveryNanos) {
            found.accept(directory.queues(spiderId).stream().map(QueueKey::domain).toList());
            scanned = true;
            scannedAt = now;
        }
    }

    /** Hands on what became active since the last look; nothing when Redis refuses the index. */
    private void readActiveDomains() {
        refused.run(Keyspace.activeDomains(spiderId), () -> {
            ActiveDomains.Changes changes;
            do {
                changes = activeDomains.changedSince(spiderId, cursor, PAGE);
                cursor = changes.next();
                found.accept(changes.domains());
            } while (changes.domains().size() == PAGE);
        });
    }

    private void tick() {
        try {
            lookOnce();
            outage.succeeded();
        } catch (RedisException e) {
            outage.failed(e);
        } catch (RuntimeException e) {
            LOG.error("Queue discovery failed", e);
        }
    }

    @Override
    public void close() {
        ticker.close();
    }

    /** Stops looking, waiting at most {@code wait} for a look in progress. */
    public void close(Duration wait) {
        ticker.close(wait);
    }
}
