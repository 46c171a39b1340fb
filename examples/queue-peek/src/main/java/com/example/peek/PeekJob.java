package com.example.peek;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One peek, as its job key spells it: {@code peek:<spiderid>:<domain>:<appid>:<count>}. The key is all the job
 * needs, so the requests for the same peek that wait together are answered by one look at the queue; the job's value
 * is the uuid its answer carries.
 *
 * @param spiderid the spider whose queue is looked at
 * @param domain   the queue's domain, as the queue's key spells it (lower case)
 * @param appid    the requester's application, which chooses the outbound topic
 * @param count    how many of the queue's first requests to list
 */
public record PeekJob(String spiderid, String domain, String appid, int count) {

    /** The Redis glob of every peek job key, the pattern of {@link PeekMonitor}. */
    public static final String PATTERN = "peek:*:*:*:*";

    private static final String PREFIX = "peek";

    public PeekJob {
        Objects.requireNonNull(spiderid, "spiderid");
        Objects.requireNonNull(appid, "appid");
        domain = domain.toLowerCase(Locale.ROOT);
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
    }

    /** The job key. */
    public String key() {
        return String.join(":", PREFIX, spiderid, domain, appid, Integer.toString(count));
    }

    /**
     * The peek a job key names.
     *
     * @throws IllegalArgumentException when {@code key} is not {@code peek:<spiderid>:<domain>:<appid>:<count>}
     */
    public static PeekJob parse(String key) {
        List<String> parts = List.of(key.split(":", -1));
        if (parts.size() != 5 || !parts.getFirst().equals(PREFIX) || parts.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("The job key " + key + " is not peek:<spiderid>:<domain>:<appid>:<count>");
        }
        try {
            return new PeekJob(parts.get(1), parts.get(2), parts.get(3), Integer.parseInt(parts.get(4)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("The job key " + key + " has no whole count at its end", e);
        }
    }
}
