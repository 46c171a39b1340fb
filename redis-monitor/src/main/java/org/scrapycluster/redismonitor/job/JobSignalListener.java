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
 */
public final class JobSignalListener implements Worker.Step, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JobSignalListener.class);
    private static final Duration LONGEST_BLOCK = Duration.ofSeconds(1);

    private final RedisEndpoint endpoint;
    private final List<Route> routes;
    private final JobPass jobs;
    private final JobRetries retries;
    private final double blockSeconds;
    private RedisConnection connection;

    /**
     * @param endpoint  where to open the listening connection
     * @param plugins   the plugins in rank order
     * @param processor processes the popped keys
     * @param retries   the jobs it tries again once they are due
     */
    public JobSignalListener(RedisEndpoint endpoint, List<JobPlugin> plugins, JobProcessor processor, JobRetries retries) {
        this.endpoint = endpoint;
        this.retries = retries;
        this.routes = plugins.stream().map(plugin -> new Route(Glob.compile(plugin.pattern()), plugin)).toList();
        this.jobs = new JobPass(processor, LOG, "The job signal listener");
        Duration block = endpoint.timeout().dividedBy(2);
        this.blockSeconds = (block.compareTo(LONGEST_BLOCK) < 0 ? block : LONGEST_BLOCK).toMillis() / 1000.0;
    }

    /**
     * Waits up to a second for a signal and processes the key it names, then the jobs due to be tried again. The
     * wait is not one a stop interrupts ({@link Worker#idle}): an interrupted {@code BLPOP} stays in Redis, and would pop
     * a signal nobody reads.
     */
    @Override
    public void run() throws OutboundUnavailableException {
        if (connection == null) {
            connection = RedisConnection.open(endpoint);
        }
        KeyValue<String, String> signal = connection.sync().blpop(blockSeconds, Keyspace.JOBS_SIGNAL);
        if (signal != null && signal.hasValue()) {
            String key = signal.getValue();
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
