package org.scrapycluster.redismonitor.job;

import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.redis.Glob;

/**
 * Asks a plugin for the glob of its job keys ({@link JobPlugin#pattern()}), which extension code may fail to give, or
 * give malformed:
 * checked once at start-up, where it fails the start, and at every scan, where it passes the plugin over
 * (docs/extending.md).
 */
public final class JobPattern {

    private JobPattern() {
    }

    /**
     * The glob of {@code plugin}'s job keys.
     *
     * @throws Missing when {@code pattern()} throws, answers null or a glob with a {@code [} never closed, which the job
     *                  scan could not match keys with (a fatal {@link Error} is thrown as it is)
     */
    public static String of(JobPlugin plugin) {
        return glob(plugin).toString();
    }

    /** The glob of {@code plugin}'s job keys, compiled; {@link #of} says when it throws {@link Missing}. */
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
