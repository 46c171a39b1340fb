package org.scrapycluster.common.queue;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The accounting of one crawl ({@code crawl:<spiderid>:<appid>:<crawlid>}): what the Redis
 * monitor's info answers from, without reading the queues.
 *
 * @param crawl   the crawl
 * @param domains per domain, the requests queued or leased, ordered by domain
 * @param pending requests queued or leased in total
 * @param pages   results published
 * @param expires the crawl's {@code expires} (0 for never)
 * @param updated the last change, when known
 */
public record CrawlCount(CrawlRef crawl, Map<String, DomainCount> domains, long pending, long pages, long expires,
                         Optional<Instant> updated) {

    public CrawlCount {
        domains = Map.copyOf(domains);
    }

    /** The number of domains with requests of the crawl. */
    public int totalDomains() {
        return domains.size();
    }

    /**
     * One domain's requests of a crawl.
     *
     * @param total        requests queued or leased
     * @param highPriority the highest crawl priority among them
     * @param lowPriority  the lowest crawl priority among them
     */
    public record DomainCount(long total, int highPriority, int lowPriority) {

        /** This count with {@code count} more requests at {@code priority}. */
        DomainCount plus(long count, int priority) {
            return new DomainCount(total + count, Math.max(highPriority, priority), Math.min(lowPriority, priority));
        }
    }
}
