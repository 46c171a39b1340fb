package org.scrapycluster.redismonitor.job;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.lettuce.core.KeyValue;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.Glob;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.redismonitor.outbound.OutboundUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks up signalled jobs at once: blocks on {@code BLPOP jobs:signal} on a connection of its own
 * (a blocked connection cannot carry other commands) and processes each key it pops with the
 * first plugin, in rank order, whose pattern matches it. Each signal is popped by one monitor
 * only; a key processed meanwhile by a scan is found gone and skipped. Between signals it tries again, once they
 * are due, the jobs that failed in this monitor or whose lock another monitor held ({@link JobRetries}). A job whose
 * keys Redis refuses is logged once and passed over, as by the scan, without the back-off of an outage
 * (docs/operations.md "Keys Redis refuses").
 *
 * <p>The wait for a signal is a second, or half the Redis timeout when that is shorter. Redis before 6.0 takes a
 * blocking command's timeout in whole seconds only and refuses {@code 1.0}: a second's wait is sent as {@code 1}, and a
 * shorter one, on such a server, is an {@code LPOP} and a pause as long when the list is empty.
 */
public final class JobSignalListener implements Worker.Step, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JobSignalListener.class);
    private static final Duration LONGEST_BLOCK = Duration.ofSeconds(1);
    /** The shortest wait Redis takes: a timeout of 0 waits for ever. */
    private static final Duration SHORTEST_BLOCK = Duration.ofMillis(1);

    private final RedisEndpoint endpoint;
    private final List<Route> routes;
    private final JobPass jobs;
    private final JobRetries retries;
    private final Duration block;
    private RedisConnection connection;
    /**
     * Whether the server takes a {@code BLPOP} timeout in fractions of a second; null until asked once connected, and
     * never asked when the wait is a whole second.
     */
    private Boolean fractionalBlock;

    /**
     * @param endpoint  where to open the listening connection
     * @param plugins   the plugins in rank order
     * @param processor processes the popped keys
     * @param retries   the jobs it tries again once they are due
     */
    public JobSignalListener(RedisEndpoint endpoint, List<JobPlugin> plugins, JobProcessor processor, JobRetries retries) {
        this(endpoint, plugins, processor, retries, null);
    }

    /** @param fractionalBlock whether the server takes a wait in fractions of a second (its version decides when null) */
    JobSignalListener(RedisEndpoint endpoint, List<JobPlugin> plugins, JobProcessor processor, JobRetries retries,
            Boolean fractionalBlock) {
        this.fractionalBlock = fractionalBlock;
        this.endpoint = endpoint;
        this.retries = retries;
        this.routes = plugins.stream().map(plugin -> new Route(Glob.compile(plugin.pattern()), plugin)).toList();
        this.jobs = new JobPass(processor, LOG, "The job signal listener");
        Duration half = endpoint.timeout().dividedBy(2);
        this.block = half.compareTo(LONGEST_BLOCK) > 0 ? LONGEST_BLOCK
                : half.compareTo(SHORTEST_BLOCK) < 0 ? SHORTEST_BLOCK : half;
    }

    /**
     * Waits up to a second for a signal and processes the key it names, then the jobs due to be tried again. The
     * wait is not one a stop interrupts ({@link Worker#idle}): an interrupted {@code BLPOP} stays in Redis, and would pop
     * a signal nobody reads.
     */
    @Override
    public void run() throws OutboundUnavailableException, InterruptedException {
        if (connection == null) {
            connection = RedisConnection.open(endpoint);
        }
        if (fractionalBlock == null && !block.equals(LONGEST_BLOCK)) { // a whole second needs no asking
            fractionalBlock = connection.isRedis6OrNewer();
        }
        String key = nextSignal();
        if (key != null) {
            Optional<JobPlugin> plugin = pluginFor(key);
            if (plugin.isPresent()) {
                jobs.process(plugin.get(), key);
            } else {
                LOG.debug("No plugin here runs the signalled key {}; a monitor that runs one finds it by its scan", key);
            }
        }
        for (Map.Entry<String, JobPlugin> retry : retries.takeDue()) {
            jobs.process(retry.getValue(), retry.getKey());
        }
    }

    /** The job key of the next signal, waiting up to {@link #block} (at least a millisecond) for one; null when none came. */
    private String nextSignal() throws InterruptedException {
        KeyValue<String, String> signal;
        if (block.equals(LONGEST_BLOCK)) {
            signal = connection.sync().blpop(block.toSeconds(), Keyspace.JOBS_SIGNAL);
        } else if (fractionalBlock) {
            signal = connection.sync().blpop(block.toMillis() / 1000.0, Keyspace.JOBS_SIGNAL);
        } else {
            String key = connection.sync().lpop(Keyspace.JOBS_SIGNAL);
            if (key == null) {
                Worker.idle(() -> Thread.sleep(block));
            }
            return key;
        }
        return signal != null && signal.hasValue() ? signal.getValue() : null;
    }

    /** The first plugin, in rank order, whose pattern matches {@code key}. */
    private Optional<JobPlugin> pluginFor(String key) {
        return routes.stream().filter(route -> route.glob().matches(key)).map(Route::plugin).findFirst();
    }

    /** Closes the listening connection; call after the worker running it has stopped. */
    @Override
    public void close() {
        if (connection != null) {
            connection.close();
        }
    }

    private record Route(Glob glob, JobPlugin plugin) {
    }
}
