package org.scrapycluster.redismonitor.job;

import java.util.List;

import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.keyspace.KeyTemplate;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.Glob;

/**
 * Asks a plugin for the glob of its job keys ({@link JobPlugin#pattern()}), which extension code may fail to give, or
 * give malformed:
 * checked once at start-up, where it fails the start ({@link #check}: also when it takes the cluster's own keys), and
 * at every scan, where it passes the plugin over (docs/extending.md).
 */
public final class JobPattern {

    /** The keys of jobs, which the built-in plugins take (docs/redis-monitor.md). */
    private static final List<KeyTemplate> JOBS = List.of(Keyspace.INFO_APP, Keyspace.INFO_CRAWL, Keyspace.STOP_APP, Keyspace.STOP_CRAWL,
            Keyspace.STATS_REQUEST, Keyspace.ZOOKEEPER, Keyspace.TIMEOUT);
    /** One key of each shape the cluster keeps for itself, each part of its name {@code x}: all but the jobs' and a member. */
    private static final List<String> CLUSTER_KEYS = Keyspace.ALL.stream()
            .filter(template -> !JOBS.contains(template) && template != Keyspace.BLACKLIST_ENTRY).map(JobPattern::sample).toList();
    /** One key of each shape of the built-in jobs. */
    private static final List<String> JOB_KEYS = JOBS.stream().map(JobPattern::sample).toList();

    /** How many of the cluster's keys a refused glob's error names. */
    private static final int NAMED = 3;

    private JobPattern() {
    }

    /**
     * The glob of {@code plugin}'s job keys, as a start checks it: besides what {@link #glob} refuses, a glob that matches
     * a key the cluster keeps for itself (a lock, a heartbeat, {@code cluster:keyspace}: every key of
     * docs/architecture.md but the jobs'), which the job scan would hand to the plugin and then delete. A glob of
     * {@code *} took every string key of a cluster, and the Redis monitor then said Redis had lost the cluster's keys.
     *
     * @return the glob, for {@link #jobKeys}: the plugin is asked once
     * @throws Missing as {@link #glob}, and for such a glob, naming the keys it matches
     */
    public static Glob check(JobPlugin plugin) {
        Glob glob = glob(plugin);
        List<String> taken = CLUSTER_KEYS.stream().filter(glob::matches).toList();
        if (!taken.isEmpty()) {
            String named = String.join(", ", taken.subList(0, Math.min(NAMED, taken.size()))) + (taken.size() > NAMED ? ", …" : "");
            throw new Missing("returned '" + glob + "', which matches keys the cluster keeps for itself (" + named
                    + "): the job scan would hand them to it and delete them; give the glob of its own jobs' keys", null);
        }
        return glob;
    }

    /**
     * The built-in jobs' keys, one of each shape, that a plugin's {@code glob} matches: two plugins that match one would
     * each take some of those jobs, whichever locks a key first, and the other never sees them.
     */
    public static List<String> jobKeys(Glob glob) {
        return JOB_KEYS.stream().filter(glob::matches).toList();
    }

    private static String sample(KeyTemplate template) {
        return template.fill(template.holes().stream().map(hole -> "x").toArray(String[]::new));
    }

    /**
     * The glob of {@code plugin}'s job keys, compiled.
     *
     * @throws Missing when {@code pattern()} throws, answers null or a glob with a {@code [} never closed, which the job
     *                  scan could not match keys with (a fatal {@link Error} is thrown as it is)
     */
    static Glob glob(JobPlugin plugin) {
        String pattern;
        try {
            pattern = plugin.pattern();
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            throw new Missing("threw " + ExtensionFailures.described(e), e);
        }
        if (pattern == null) {
            throw new Missing("returned null", null);
        }
        try {
            return Glob.compile(pattern);
        } catch (IllegalArgumentException e) {
            throw new Missing("returned " + e.getMessage(), e);
        }
    }

    /** A plugin gave no glob of its job keys; the message says how ("returned null", "threw …"). */
    public static final class Missing extends RuntimeException {

        Missing(String how, Throwable cause) {
            super(how, cause);
        }
    }
}
