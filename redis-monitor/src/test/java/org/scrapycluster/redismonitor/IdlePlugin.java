package org.scrapycluster.redismonitor;

import java.util.List;
import java.util.function.Supplier;

import org.scrapycluster.redismonitor.job.Answer;
import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.JobPlugin;

/** A test plugin that answers no job: its {@code pattern()} and its {@code close()} are what the test gives. */
record IdlePlugin(Supplier<String> keys, Runnable onClose) implements JobPlugin {

    @Override
    public String name() {
        return "IdlePlugin";
    }

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
