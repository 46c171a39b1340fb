package org.scrapycluster.redismonitor;

import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.scrapycluster.redismonitor.job.Answer;
import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.JobPluginFactory;
import org.scrapycluster.redismonitor.job.PluginContext;

/**
 * A user plugin, named in {@code PLUGINS} by its factory's class name, whose jobs {@code blocktest:<appid>:<name>} are
 * slow: {@code handle} does not return, interrupted or not, until {@link #RELEASED} is counted down (a job in hand
 * that outlasts a stop), and answers nothing.
 */
public final class BlockingPlugin implements JobPlugin {

    /** Counted down as each job's {@code handle} begins. */
    static final CountDownLatch HANDLING = new CountDownLatch(2);
    /** Lets the jobs in hand return. */
    static final CountDownLatch RELEASED = new CountDownLatch(1);

    /** Makes the plugin. */
    public static final class Factory implements JobPluginFactory {
        @Override
        public String name() {
            return Factory.class.getName();
        }

        @Override
        public JobPlugin create(PluginContext context) {
            return new BlockingPlugin();
        }
    }

    @Override
    public String name() {
        return "BlockingPlugin";
    }

    @Override
    public String pattern() {
        return "blocktest:*:*";
    }

    @Override
    public List<Answer> handle(Job job) {
        HANDLING.countDown();
        boolean interrupted = false;
        while (RELEASED.getCount() > 0) {
            try {
                RELEASED.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return List.of();
    }
}
