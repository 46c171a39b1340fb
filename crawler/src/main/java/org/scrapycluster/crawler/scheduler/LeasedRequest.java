package org.scrapycluster.crawler.scheduler;

import java.time.Instant;
import java.util.Objects;

import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.ThrottleSpec;

/**
 * A request this node holds a lease on: its queue member exactly as it was queued, and the lease that
 * keeps it invisible to other nodes until it is acknowledged or expires.
 *
 * @param queue    the queue it came from
 * @param member   the queue member
 * @param score    its queue score (−priority), which names its crawl priority when the member has none
 * @param leaseId  the lease id {@code <domain>|<score>|<holder>}
 * @param throttle the throttle it was handed out under (to pause the domain on Retry-After)
 * @param handedOut when it was handed out, by the Redis server's clock, as its throttle's window holds it
 */
public record LeasedRequest(QueueKey queue, String member, double score, String leaseId, ThrottleSpec throttle, Instant handedOut) {

    public LeasedRequest {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(leaseId, "leaseId");
        Objects.requireNonNull(throttle, "throttle");
        Objects.requireNonNull(handedOut, "handedOut");
    }

    /** The registered domain of the queue. */
    public String domain() {
        return queue.domain();
    }
}
