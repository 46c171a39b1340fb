package org.scrapycluster.redismonitor;

import java.util.List;
import java.util.function.Supplier;

import org.scrapycluster.redismonitor.job.Answer;
import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.JobPlugin;

/**
 * A test plugin that answers no job: its {@code name()}, {@code pattern()} and {@code close()} are what the test gives
 * (two plugins of one name are a start-up error).
 */
record IdlePlugin(String name, Supplier<String> keys, Runnable onClose) implements JobPlugin {

    @Override
    public String pattern() {
        return keys.get();
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
