package org.scrapycluster.common.request;

import org.scrapycluster.common.settings.Settings;

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

    /**
     * The limits {@code CRAWL_MAXDEPTH_LIMIT} and {@code CRAWL_DOMAIN_MAX_PAGES_LIMIT} set.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting when one is negative
     */
    public static CrawlLimits from(Settings settings) {
        return new CrawlLimits(nonNegative(settings, "CRAWL_MAXDEPTH_LIMIT"), nonNegative(settings, "CRAWL_DOMAIN_MAX_PAGES_LIMIT"));
    }

    private static long nonNegative(Settings settings, String name) {
        long value = settings.getLong(name);
        if (value < 0) {
            throw settings.invalid(name, "cannot be negative");
        }
        return value;
    }

    public CrawlLimits {
        if (maxDepth < 0 || maxDomainPages < 0) {
            throw new IllegalArgumentException("crawl limits cannot be negative: maxdepth " + maxDepth
                    + ", domain_max_pages " + maxDomainPages);
        }
    }
}
