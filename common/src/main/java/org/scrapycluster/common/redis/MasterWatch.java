package org.scrapycluster.common.redis;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the Sentinels every {@link #PERIOD} where the master is, and runs {@code moved} when they name another one than
 * the one last moved to, twice in a row (a Sentinel a step behind the others names the old one for a moment), until it
 * succeeds (docs/operations.md "Redis failover"). Lettuce asks them only when it (re)connects, and a master that
 * hangs (a paused VM, a partition) leaves its connections open: without this, a service would wait on it however soon
 * the Sentinels promoted a replica, and write to it again once it woke, until the Sentinels demoted it and those writes
 * were thrown away. A Sentinel that does not answer is left for the next one Lettuce reaches.
 */
final class MasterWatch implements AutoCloseable {

    /** How often the Sentinels are asked. */
    static final Duration PERIOD = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(MasterWatch.class);

    private final RedisClient client;
    private final String master;
    private final Runnable moved;
    private final Ticker ticker = new Ticker("redis-master-watch");
    /** Set by {@link #close()}: a move cut short by the stop is not said to have failed. */
    private volatile boolean closed;
    /** The connection to a Sentinel, made when first needed and again after one failed; closed by whichever thread takes it. */
    private final AtomicReference<StatefulRedisSentinelConnection<String, String>> sentinel = new AtomicReference<>();
    /** The master as the Sentinels named it when watching began, or the one last moved to. */
    private String known;
    /** Another master the Sentinels named at the last look, once: moved to if they name it again. */
    private String named;
    /** The master a move to failed, said at WARN once: its later failures go to DEBUG. */
    private String failedFor;

    /**
     * Starts watching.
     *
     * @param client the data connection's client, whose URI names the Sentinels and the master
     * @param moved  run, on the watch's own thread, when the Sentinels name another master than the time before
     */
    MasterWatch(RedisClient client, String master, Runnable moved) {
        this.client = client;
        this.master = master;
        this.moved = moved;
        ticker.every(Duration.ZERO, PERIOD, this::ask);
    }

    private void ask() {
        String answer;
        try {
            StatefulRedisSentinelConnection<String, String> asked = sentinel.get();
            if (asked == null) {
                asked = client.connectSentinel();
                sentinel.set(asked);
            }
            answer = address(asked.sync().getMasterAddrByName(master));
        } catch (RuntimeException e) { // a Redis failure, or the client shutting down: either way, the next look
            LOG.debug("No Sentinel said where master {} is ({}); asking again", master, e.getMessage());
            closeSentinel();
            return;
        }
        if (answer == null || answer.equals(known) || known == null) {
            known = known == null ? answer : known;
            named = null;
            failedFor = answer == null ? failedFor : null;
            return;
        }
        if (!answer.equals(named)) {
            named = answer;
            return;
        }
        boolean firstTry = !answer.equals(failedFor);
        if (firstTry) {
            LOG.atWarn().addKeyValue("master", master).addKeyValue("from", known).addKeyValue("to", answer)
                    .log("The Sentinels moved master " + master + " from " + known + " to " + answer + "; following it");
        }
        try {
            moved.run();
            known = answer;
            named = null;
            failedFor = null;
        } catch (RuntimeException e) {
            if (closed) {
                return;
            }
            if (firstTry) {
                failedFor = answer;
                LOG.warn("Reconnecting to master {} at {} failed ({}); trying again each second", master, answer, e.getMessage());
            } else {
                LOG.debug("Reconnecting to master {} at {} failed again ({})", master, answer, e.getMessage());
            }
        }
    }

    private static String address(SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet.getHostString() + ":" + inet.getPort()
                : address == null ? null : address.toString();
    }

    private void closeSentinel() {
        StatefulRedisSentinelConnection<String, String> taken = sentinel.getAndSet(null);
        if (taken != null) {
            taken.closeAsync();
        }
    }

    @Override
    public void close() {
        closed = true;
        ticker.close(PERIOD);
        closeSentinel();
    }
}
