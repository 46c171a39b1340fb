package org.scrapycluster.redismonitor.job;

import java.util.List;
import java.util.Objects;

/**
 * One job found in Redis: its key ({@code info:link:app1:c1}) and the value read under its lock
 * (usually the request's uuid).
 */
public record Job(String key, String value) {

    public Job {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }

    /** The key's {@code :}-separated parts, as the original splits it (empty parts kept). */
    public List<String> parts() {
        return List.of(key.split(":", -1));
    }

    /**
     * The parts of a key that must have exactly {@code count} of them.
     *
     * @throws RejectedJobException saying {@code shape} when it has another number
     */
    public List<String> parts(int count, String shape) {
        List<String> parts = parts();
        if (parts.size() != count || parts.stream().anyMatch(String::isEmpty)) {
            throw new RejectedJobException("The job key " + key + " is not " + shape);
        }
        return parts;
    }
}
