package org.scrapycluster.kafkamonitor.intake;

import java.util.List;
import java.util.Optional;

import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueResult;
import org.scrapycluster.kafkamonitor.rejection.Rejection;

/**
 * What an accepted crawl request comes to once Redis has answered its enqueue: queued; already
 * there (this very request is queued, or its URL was already registered in the crawl's
 * dupefilter, for example because the record is delivered again), which leaves it accepted; or
 * refused, because its crawl was stopped or has expired, or because Redis refuses a key of it.
 */
final class SeedOutcomes {

    private SeedOutcomes() {
    }

    static Disposition settle(Disposition.Accepted accepted, EnqueueResult result) {
        String crawl = accepted.request().field("appid") + "/" + accepted.request().field("crawlid");
        EnqueueOutcome outcome = result.outcome();
        return switch (outcome) {
            case QUEUED, ALREADY_QUEUED, DUPLICATE -> accepted;
            case BLACKLISTED -> refuse(accepted, "The crawl was stopped or has expired",
                    "crawlid: the crawl " + crawl + " is on the blacklist of spider " + accepted.request().field("spiderid")
                            + " (stopped or expired); use a new crawlid");
            case EXPIRED -> refuse(accepted, "The crawl has expired",
                    "expires: " + accepted.request().field("expires") + " has passed");
            case INVALID -> refuse(accepted, "The crawl request cannot be queued",
                    "request: no string appid and crawlid or no numeric priority");
            case KEY_CONFLICT -> refuse(accepted, "The crawl request cannot be queued", "request: Redis refuses a key of it, such as "
                    + "one of another type under its name (an id named like a key's last part): " + result.refusal());
            // seeds are filed without page limits or a domain refusal; a plugin that adds them gets this
            case PAGE_LIMIT, DOMAIN_BLACKLISTED -> refuse(accepted, "The crawl request cannot be queued",
                    "request: refused by " + (outcome == EnqueueOutcome.PAGE_LIMIT ? "a page limit" : "the domain blacklist"));
            // the schema and the safety checks refuse such URLs before a seed is filed; a plugin that files its own gets this
            case NOT_HTTP, INVALID_URL -> refuse(accepted, "The crawl request cannot be queued", "url: not an http or https URL with a valid host");
        };
    }

    /** The log message of an accepted request whose enqueue had {@code outcome}; {@code queued} when it was queued. */
    static String logMessage(EnqueueOutcome outcome, String queued) {
        return switch (outcome) {
            case ALREADY_QUEUED -> "Crawl already in Redis, not added again";
            case DUPLICATE -> "Crawl seed already seen by its crawl, not added again";
            default -> queued;
        };
    }

    /**
     * An accepted request whose write Redis refused with {@code error} (not an outage: it would refuse it again until
     * the key is repaired).
     */
    static Disposition refusedByRedis(Disposition.Accepted accepted, String error) {
        return refuse(accepted, "The request cannot be written to Redis", "redis: " + error);
    }

    private static Disposition refuse(Disposition.Accepted accepted, String reason, String detail) {
        return new Disposition.Rejected(Rejection.refused(accepted.request().recipient(), accepted.plugin().schemaName(), reason, List.of(detail)),
                Optional.of(accepted.plugin()));
    }
}
