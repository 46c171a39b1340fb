package org.scrapycluster.redismonitor.job;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The requests waiting on one job key: the values of its waiting list ({@code jobs:<job key>:waiting}),
 * oldest first, and the key's own value when the list does not hold it (written by a Python
 * Kafka monitor, or the list expired), each once (docs/redis-monitor.md "Requests of the same
 * scope").
 *
 * @param key    the job key
 * @param values the distinct values to answer, in the order written
 * @param listed the entries read from the waiting list, in order, each to be taken off it once answered
 */
record Waiters(String key, List<String> values, List<String> listed) {

    Waiters {
        values = List.copyOf(values);
        listed = List.copyOf(listed);
    }

    /** The waiters of {@code key} from its waiting list {@code listed} and its value {@code latest}. */
    Waiters(String key, List<String> listed, String latest) {
        this(key, distinct(listed, latest), listed);
    }

    /** One job per value, to hand to the plugin. */
    List<Job> jobs() {
        return values.stream().map(value -> new Job(key, value)).toList();
    }

    private static List<String> distinct(List<String> listed, String latest) {
        Set<String> values = new LinkedHashSet<>(listed);
        values.add(latest);
        return new ArrayList<>(values);
    }
}
