package com.example.peek;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.RejectedJobException;

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
    private static final String SHAPE = "peek:<spiderid>:<domain>:<appid>:<count>";

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
     * The peek {@code job}'s key names.
     *
     * @throws RejectedJobException when the key is not {@code peek:<spiderid>:<domain>:<appid>:<count>} with a count of
     *         at least 1
     */
    public static PeekJob of(Job job) {
        List<String> parts = job.parts(5, SHAPE);
        if (!parts.getFirst().equals(PREFIX)) {
            throw new RejectedJobException("The job key " + job.key() + " is not " + SHAPE);
        }
        int count;
        try {
            count = Integer.parseInt(parts.get(4));
        } catch (NumberFormatException e) {
            throw new RejectedJobException("The job key " + job.key() + " has no whole count at its end");
        }
        try {
            return new PeekJob(parts.get(1), parts.get(2), parts.get(3), count);
        } catch (IllegalArgumentException e) {
            throw new RejectedJobException(e.getMessage());
        }
    }
}
