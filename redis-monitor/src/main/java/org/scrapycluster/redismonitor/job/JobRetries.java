package org.scrapycluster.redismonitor.job;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The jobs this monitor is to try again {@code SLEEP_TIME} after it came to them, as the original's loop tried them at
 * its next round: those it failed and did not give up, and those whose lock another monitor held. The job scan would
 * find them too, but a large keyspace spaces the scans out (docs/redis-monitor.md "How a job runs"): a failing job
 * would be given up, and its requesters told, minutes later, and so would a job whose monitor died holding its lock be
 * answered. Only a job's key and plugin are kept: a job answered meanwhile, by this monitor or another, is found gone
 * when it is tried; one that fails again, or is still locked, is kept again. Thread-safe.
 */
public final class JobRetries {

    private final InstantSource clock;
    private final Duration after;
    private final Map<String, Retry> retries = new ConcurrentHashMap<>();

    /**
     * @param clock a clock the wall clock's setting does not move ({@code StopBudget.MONOTONIC}): set back an hour, the
     *              wall clock would hold every retry back that long
     * @param after how long after this monitor came to it a job is tried again ({@code SLEEP_TIME})
     */
    public JobRetries(InstantSource clock, Duration after) {
        this.clock = clock;
        this.after = after;
    }

    /** Notes that the job at {@code key} of {@code plugin} is to be tried again: it failed, or its lock was held. */
    void tryLater(JobPlugin plugin, String key) {
        retries.put(key, new Retry(plugin, clock.instant().plus(after)));
    }

    /** Takes out the jobs due to be tried again, each once, as pairs of its key and its plugin. */
    List<Map.Entry<String, JobPlugin>> takeDue() {
        if (retries.isEmpty()) {
            return List.of();
        }
        Instant now = clock.instant();
        List<Map.Entry<String, JobPlugin>> due = new ArrayList<>();
        retries.forEach((key, retry) -> {
            if (!retry.due().isAfter(now) && retries.remove(key, retry)) {
                due.add(Map.entry(key, retry.plugin()));
            }
        });
        return due;
    }

    private record Retry(JobPlugin plugin, Instant due) {
    }
}
