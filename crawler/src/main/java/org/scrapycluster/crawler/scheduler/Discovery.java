package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.ActiveDomains;
import org.scrapycluster.common.queue.QueueDirectory;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.redis.ChannelListener;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RefusedKeys;
import org.scrapycluster.common.redis.ScanPace;
import org.scrapycluster.common.redis.ScanTurn;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.service.StopBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the domains of a spider that have work (docs/architecture.md "Readiness and discovery"): it reads what
 * changed in {@code <spiderid>:active_domains} since its last look — O(log n + new) — as soon as a domain is
 * published on {@code <spiderid>:active_domains:added} (signals that come while a look is waiting or running are
 * answered by one look), and every {@code interval} besides, for a signal lost while its subscription was down.
 * Queues written by components that keep no active-domain index (a Python Kafka monitor) are found by a scan of the
 * keyspace for {@code <spiderid>:*:queue}, which walks every key: one node of the cluster scans every
 * {@code scanPeriod}, the one that takes the turn ({@code <spiderid>:queue_scan}, set for nine tenths of the period, so
 * that a node whose next scan is due finds it gone, or for 39 times the shortest of its last three scans when that is longer, so that on a
 * keyspace of millions of keys the scans take at most a fortieth of Redis's time), and puts the
 * domains it finds that have requests and are not in the index there, where every node reads them. Found domains go to
 * the scheduler, which ignores those it already knows. An active-domain index Redis refuses (of another type, written
 * by hand) is logged once, and the node then scans every period whoever has the turn, and keeps what it finds to itself
 * (docs/operations.md "Keys Redis refuses").
 */
public final class Discovery implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Discovery.class);
    private static final int PAGE = 1000;

    private final RedisConnection redis;
    private final String spiderId;
    private final ActiveDomains activeDomains;
    private final QueueDirectory directory;
    private final Duration interval;
    /** When this node next looks at the scan: its period, or less often after a slow scan ({@link ScanPace}). */
    private final ScanPace scanPace;
    /** The cluster's turn to scan, {@code <spiderid>:queue_scan}. */
    private final ScanTurn scanTurn;
    /** How long a node that takes the turn holds it: nine tenths of the period. */
    private final Duration turn;
    /** How long the turn is held after a scan: {@link #turn}, or longer after slow scans. */
    private final ScanPace turnPace;
    private final Consumer<List<String>> found;
    private final OutageReporter outage = new OutageReporter(LOG, "Queue discovery");
    private final RefusedKeys refused = new RefusedKeys(LOG, "Queue discovery");
    private final Ticker ticker;
    private final AtomicBoolean lookAsked = new AtomicBoolean();
    private volatile ChannelListener signals;
    private ActiveDomains.Cursor cursor = ActiveDomains.Cursor.START;
    private boolean indexRefused;

    /**
     * @param redis      the connection
     * @param spiderId   the spider whose queues to find
     * @param interval   how often active domains are read without a signal
     * @param scanPeriod how often the keyspace is scanned ({@code SCHEDULER_QUEUE_REFRESH})
     * @param found      receives found domains
     */
    public Discovery(RedisConnection redis, String spiderId, Duration interval, Duration scanPeriod, Consumer<List<String>> found) {
        this.redis = redis;
        this.spiderId = spiderId;
        this.activeDomains = new ActiveDomains(redis);
        this.directory = new QueueDirectory(redis);
        this.interval = interval;
        this.scanPace = new ScanPace(scanPeriod, StopBudget.MONOTONIC);
        this.scanTurn = new ScanTurn(redis, Keyspace.QUEUE_SCAN_TURN.fill(spiderId));
        this.turn = scanPeriod.multipliedBy(9).dividedBy(10);
        this.turnPace = new ScanPace(turn, StopBudget.MONOTONIC);
        this.found = found;
        this.ticker = new Ticker("crawler-discovery-" + spiderId);
    }

    /** Starts listening and looking in the background, at once. */
    public void start() {
        ticker.every(Duration.ZERO, interval, this::tick);
    }

    /** A domain became active, or the subscription was (re)confirmed: one look soon, for all the signals until it starts. */
    private void heard() {
        if (lookAsked.compareAndSet(false, true)) {
            try {
                ticker.soon(this::tick);
            } catch (RejectedExecutionException closing) {
                lookAsked.set(false);
            }
        }
    }

    /** One look: what became active, and a scan when one is due and this node's turn. */
    synchronized void lookOnce() {
        readActiveDomains();
        scanPace.ifDue(this::scanOnTurn).ifPresent(found);
    }

    /**
     * The domains with queues, found by a scan when this node has the turn, or by itself when the index is refused, and
     * put in the index for every node; none when another node has the turn.
     */
    private List<String> scanOnTurn() {
        if (indexRefused) {
            return queuedDomains();
        }
        if (!scanTurn.take(turn)) {
            return List.of();
        }
        long started = System.nanoTime();
        List<String> domains = queuedDomains();
        refused.run(Keyspace.activeDomains(spiderId), () -> activeDomains.activate(spiderId, domains));
        Duration quiet = turnPace.quietAfter(Duration.ofNanos(System.nanoTime() - started));
        if (quiet.compareTo(turn) > 0) {
            scanTurn.holdFor(quiet); // after slow scans, 39 times the shortest: no node scans before
        }
        return domains;
    }

    private List<String> queuedDomains() {
        return directory.queues(spiderId).stream().map(QueueKey::domain).toList();
    }

    /** Hands on what became active since the last look; nothing when Redis refuses the index. */
    private void readActiveDomains() {
        indexRefused = !refused.run(Keyspace.activeDomains(spiderId), () -> {
            ActiveDomains.Changes changes;
            do {
                changes = activeDomains.changedSince(spiderId, cursor, PAGE);
                cursor = changes.next();
                found.accept(changes.domains());
            } while (changes.domains().size() == PAGE);
        });
    }

    private void tick() {
        lookAsked.set(false);
        try {
            lookOnce();
            listen();
            outage.succeeded();
        } catch (RedisException e) {
            outage.failed(e);
        } catch (RuntimeException e) {
            LOG.error("Queue discovery failed", e);
        }
    }

    /** Whether Redis has confirmed the subscription to the spider's activations. */
    boolean listening() {
        ChannelListener listener = signals;
        return listener != null && listener.subscribed();
    }

    /** Waits until the looks asked for so far have been made. */
    void awaitLooksAsked(Duration wait) throws Exception {
        ticker.soon(() -> { }).get(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Subscribes to the spider's activations, or asks again for a subscription Redis has not confirmed. */
    private void listen() {
        if (signals == null) {
            signals = redis.listen(Keyspace.activations(spiderId), this::heard, LOG);
        } else {
            signals.keep();
        }
    }

    @Override
    public void close() {
        close(Ticker.STOP_TIMEOUT);
    }

    /** Stops listening and looking, waiting at most {@code wait} for a look in progress. */
    public void close(Duration wait) {
        ticker.close(wait);
        if (signals != null) {
            signals.close();
        }
    }
}
