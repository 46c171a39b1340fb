package org.scrapycluster.redismonitor.job;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.logging.SaidOnce;
import org.scrapycluster.common.redis.Glob;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;
import org.scrapycluster.common.redis.ScanPace;
import org.scrapycluster.common.redis.ScanTurn;
import org.scrapycluster.redismonitor.outbound.OutboundUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The periodic scan for job keys (docs/compatibility.md §3.1): finds every plugin's keys with {@code SCAN} (never
 * {@code KEYS}), then for each plugin in rank order reads the values of its keys in one pipeline and processes those
 * whose precondition holds. It is how jobs written without a signal (by a Python Kafka monitor) and time-driven jobs
 * (expire) are found; reading values first means a job that is not due costs no lock.
 *
 * <p>Job keys are strings (their values are read with {@code GET}), so on Redis 6.0 and newer one pass over the
 * keyspace finds them all: {@code SCAN ... TYPE string}, each key then matched against each plugin's pattern here.
 * Older servers get one pass with no filter, every key matched against the patterns here ({@link RedisKeys#matchEach}),
 * which costs Redis the same walk but sends the monitor every key (docs/redis-monitor.md "How a job runs").
 *
 * <p>The pause between scans is {@code SLEEP_TIME}, or 39 times the shortest of the last three scans' walks over the
 * keyspace when that is longer ({@link ScanPace#quietAfter}), so that scanning a large keyspace takes at most a fortieth
 * of the time.
 * One Redis monitor of the cluster scans at a time: the one whose token {@code jobs:scan_turn:<plugins>} holds, through its
 * scan and its pause; the others ask for it every {@code SLEEP_TIME}, so the scans do not grow with the monitors. The
 * turn is that of the monitor's plugins ({@link #turnKey}): a monitor that runs other plugins scans in turns of its own.
 *
 * <p>A job whose keys Redis refuses (its waiting list or failure count of another type, written by hand) is
 * logged once and passed over, and the jobs after it are processed (docs/operations.md "Keys Redis refuses"). So is a
 * plugin whose {@code pattern()} throws or answers null (docs/extending.md): the other plugins' jobs are processed.
 */
public final class JobScanner implements Worker.Step {

    private static final Logger LOG = LoggerFactory.getLogger(JobScanner.class);
    private static final String JOB_KEY_TYPE = "string";
    /** The least time a monitor that takes the turn holds it for. */
    private static final Duration TURN_AT_LEAST = Duration.ofSeconds(1);

    private final RedisConnection redis;
    private final ScanTurn turn;
    private final List<JobPlugin> plugins;
    private final JobPass jobs;
    private final Clock clock;
    private final Duration sleep;
    private final ScanPace pace;
    private final SaidOnce lostPlugins = new SaidOnce("plugin");
    /** The pause after this monitor's last scan. */
    private Duration pause = Duration.ZERO;
    /** Whether the server takes {@code SCAN ... TYPE}; null until asked, and again after a scan by type failed. */
    private Boolean byType;

    /**
     * @param plugins the plugins in rank order
     * @param sleep   the least pause between scans ({@code SLEEP_TIME})
     */
    public JobScanner(RedisConnection redis, List<JobPlugin> plugins, JobProcessor processor, Clock clock, Duration sleep) {
        this(redis, plugins, processor, clock, sleep, null);
    }

    /** @param byType whether to scan by type (the server's version decides when null) */
    JobScanner(RedisConnection redis, List<JobPlugin> plugins, JobProcessor processor, Clock clock, Duration sleep, Boolean byType) {
        this.byType = byType;
        this.redis = redis;
        this.turn = new ScanTurn(redis, turnKey(plugins));
        this.plugins = List.copyOf(plugins);
        this.jobs = new JobPass(processor, LOG, "The job scan");
        this.clock = clock;
        this.sleep = sleep;
        this.pace = new ScanPace(sleep, clock);
    }

    /**
     * The key of the turn to scan for {@code plugins}' jobs, {@code jobs:scan_turn:<their names>}: monitors that run
     * the same plugins share it; one that runs others (a plugin jar on some monitors only, during a rolling upgrade)
     * takes a turn of its own, so no plugin's jobs wait on a monitor that cannot handle them.
     */
    static String turnKey(List<JobPlugin> plugins) {
        return Keyspace.JOBS_SCAN_TURN.fill(String.join(",", plugins.stream().map(JobPlugin::name).sorted().toList()));
    }

    /**
     * One scan, then the pause, when this monitor has the turn ({@code jobs:scan_turn:<plugins>}); otherwise only the least pause,
     * after which it asks for the turn again. A monitor that takes the turn holds it for its last pause or a second,
     * whichever is longer (one that dies holds it no longer), and takes it again once less than half of that is left;
     * a scan that leaves less of it than its new pause holds the turn for that pause. So on a small keyspace a scan is
     * one call, its {@code SCAN}, and the turn is taken about twice a second.
     */
    @Override
    public void run() throws OutboundUnavailableException, InterruptedException {
        Duration hold = pause.compareTo(TURN_AT_LEAST) > 0 ? pause : TURN_AT_LEAST;
        if (turn.surelyHeld().compareTo(hold.dividedBy(2)) < 0 && !turn.take(hold)) {
            Worker.idle(() -> Thread.sleep(sleep));
            return;
        }
        Duration quiet = pace.quietAfter(scanOnce());
        pause = quiet;
        if (turn.surelyHeld().compareTo(quiet) < 0) {
            turn.holdFor(quiet);
        }
        Worker.idle(() -> Thread.sleep(quiet));
    }

    /**
     * Processes every due job of every plugin once, the keys of all found by one scan.
     *
     * @return how long the scan of the keyspace took, which paces the next: not the time the jobs took, which
     *         costs Redis no walk over its keys (a scan that found jobs waiting for Kafka would otherwise hold the
     *         cluster's turn for forty times that wait, and leave the jobs written without a signal waiting as long)
     */
    public Duration scanOnce() throws OutboundUnavailableException {
        List<JobPlugin> scanned = new ArrayList<>(plugins.size());
        List<Glob> globs = new ArrayList<>(plugins.size());
        for (JobPlugin plugin : plugins) {
            Glob glob = glob(plugin);
            if (glob != null) {
                scanned.add(plugin);
                globs.add(glob);
            }
        }
        long started = System.nanoTime();
        List<List<String>> found = find(globs);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        for (int i = 0; i < scanned.size(); i++) {
            processDue(scanned.get(i), found.get(i));
        }
        return took;
    }

    /** The keys matching each of {@code globs}, in their order. */
    private List<List<String>> find(List<Glob> globs) {
        if (byType == null) {
            byType = redis.isRedis6OrNewer();
        }
        if (!byType) {
            return RedisKeys.matchEach(redis, globs);
        }
        try {
            return RedisKeys.matchEachOfType(redis, JOB_KEY_TYPE, globs);
        } catch (RuntimeException e) {
            byType = null; // a failover may have put an older server behind the address
            throw e;
        }
    }

    /** Reads the values of {@code plugin}'s job keys in one pipeline, and processes the jobs that may be due. */
    private void processDue(JobPlugin plugin, List<String> keys) throws OutboundUnavailableException {
        List<CompletableFuture<String>> values = new ArrayList<>(keys.size());
        for (String key : keys) {
            values.add(redis.async().get(key).toCompletableFuture());
        }
        for (int i = 0; i < keys.size(); i++) {
            String value = Job.value(redis, values.get(i));
            if (value != null && JobProcessor.mayBeDue(plugin, new Job(keys.get(i), value), clock.instant())) {
                jobs.process(plugin, keys.get(i));
            }
        }
    }

    /** The glob of {@code plugin}'s job keys, or null when it fails to give one (logged once a plugin). */
    private Glob glob(JobPlugin plugin) {
        try {
            return JobPattern.glob(plugin);
        } catch (JobPattern.Missing e) {
            if (lostPlugins.first(plugin.name())) {
                LOG.atError().addKeyValue("plugin", plugin.name()).setCause(e)
                        .log("A Redis monitor plugin cannot name its job keys; the scan passes over it (logged once)");
            }
            return null;
        }
    }
}
