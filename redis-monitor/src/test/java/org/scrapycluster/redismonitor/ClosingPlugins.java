package org.scrapycluster.redismonitor;

import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.JobPluginFactory;
import org.scrapycluster.redismonitor.job.PluginContext;

/** User plugins, named in {@code PLUGINS} by their factories' class names, that own no jobs and show how they are closed. */
final class ClosingPlugins {

    /** Counted down when a {@link Recorded} plugin is closed. */
    static final CountDownLatch RECORDED_CLOSED = new CountDownLatch(1);

    /** A glob no job key matches. */
    private static final Supplier<String> NO_JOBS = () -> "closingplugins-none:*:*";

    private ClosingPlugins() {
    }

    /** Makes a plugin whose close is recorded in {@link #RECORDED_CLOSED}. */
    public static final class Recorded implements JobPluginFactory {
        @Override
        public String name() {
            return Recorded.class.getName();
        }

        @Override
        public JobPlugin create(PluginContext context) {
            return new IdlePlugin(NO_JOBS, RECORDED_CLOSED::countDown);
        }
    }

    /** Makes a plugin whose close fails with an error of its own code. */
    public static final class Failing implements JobPluginFactory {
        @Override
        public String name() {
            return Failing.class.getName();
        }

        @Override
        public JobPlugin create(PluginContext context) {
            return new IdlePlugin(NO_JOBS, () -> {
                throw new AssertionError("a bug in close");
            });
        }
    }
}
