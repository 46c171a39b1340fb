package org.scrapycluster.redismonitor;

import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.scrapycluster.redismonitor.job.Answer;
import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.JobPluginFactory;
import org.scrapycluster.redismonitor.job.PluginContext;

/** User plugins, named in {@code PLUGINS} by their factories' class names, that own no jobs and show how they are closed. */
final class ClosingPlugins {

    /** Counted down when a {@link Recorded} plugin is closed. */
    static final CountDownLatch RECORDED_CLOSED = new CountDownLatch(1);

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
            return new Idle(RECORDED_CLOSED::countDown);
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
            return new Idle(() -> {
                throw new AssertionError("a bug in close");
            });
        }
    }

    private record Idle(Runnable onClose) implements JobPlugin {

        @Override
        public String name() {
            return "Idle";
        }

        @Override
        public String pattern() {
            return "closingplugins-none:*:*";
        }

        @Override
        public List<Answer> handle(Job job) {
            return List.of();
        }

        @Override
        public void close() {
            onClose.run();
        }
    }
}
