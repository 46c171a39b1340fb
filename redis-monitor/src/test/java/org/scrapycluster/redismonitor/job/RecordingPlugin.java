package org.scrapycluster.redismonitor.job;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Handles the jobs of its pattern, taking the time given for each, answering nothing, and remembers their keys. */
final class RecordingPlugin implements JobPlugin {

    final Set<String> handled = ConcurrentHashMap.newKeySet();
    private final String pattern;
    private final Duration each;

    RecordingPlugin(String pattern) {
        this(pattern, Duration.ZERO);
    }

    RecordingPlugin(String pattern, Duration each) {
        this.pattern = pattern;
        this.each = each;
    }

    @Override
    public String name() {
        return "RecordingPlugin " + pattern;
    }

    @Override
    public String pattern() {
        return pattern;
    }

    @Override
    public List<Answer> handle(Job job) throws InterruptedException {
        Thread.sleep(each);
        handled.add(job.key());
        return List.of();
    }
}
