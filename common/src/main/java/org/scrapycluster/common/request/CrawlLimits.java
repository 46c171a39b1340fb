package org.scrapycluster.common.request;

/**
 * The two limits the original crawl schema hard-codes, which an operator may raise or lower
 * (the original caps {@code maxdepth} at 3 and {@code domain_max_pages} at 2000, and users asked
 * for more).
 *
 * @param maxDepth the largest {@code maxdepth} a crawl request may ask for
 * @param maxDomainPages the largest {@code domain_max_pages} a crawl request may ask for
 */
public record CrawlLimits(long maxDepth, long maxDomainPages) {

    /** The original's limits: depth 3, 2000 pages per domain. */
    public static final CrawlLimits ORIGINAL = new CrawlLimits(3, 2000);

    public CrawlLimits {
        if (maxDepth < 0 || maxDomainPages < 0) {
            throw new IllegalArgumentException("crawl limits cannot be negative: maxdepth " + maxDepth
                    + ", domain_max_pages " + maxDomainPages);
        }
    }
}
