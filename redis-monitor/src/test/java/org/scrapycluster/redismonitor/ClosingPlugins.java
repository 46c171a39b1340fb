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

    /** Counted down when a {@link Hanging} plugin's close has begun. */
    static final CountDownLatch HANGING_CLOSING = new CountDownLatch(1);
    /** Lets a {@link Hanging} plugin's close return. */
    static final CountDownLatch HANGING_RELEASED = new CountDownLatch(1);

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
            return new IdlePlugin("recorded", NO_JOBS, RECORDED_CLOSED::countDown);
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
            return new IdlePlugin("failing", NO_JOBS, () -> {
                throw new AssertionError("a bug in close");
            });
        }
    }

    /** Makes a plugin whose close does not return until {@link #HANGING_RELEASED} is counted down. */
    public static final class Hanging implements JobPluginFactory {
        @Override
        public String name() {
            return Hanging.class.getName();
        }

        @Override
        public JobPlugin create(PluginContext context) {
            return new IdlePlugin("hanging", NO_JOBS, () -> {
                HANGING_CLOSING.countDown();
                try {
                    HANGING_RELEASED.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
    }
}
