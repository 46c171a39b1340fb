package org.scrapycluster.common.queue;

/**
 * Names of the spider-wide Redis keys of the crawl queues (docs/architecture.md "Redis keyspace").
 * Per-queue and per-crawl names live on {@link QueueKey} and {@link CrawlRef}.
 */
public final class Keyspace {

    /** The ZSET of crawls ordered by their last activity, in epoch milliseconds. */
    public static final String CRAWLS_ACTIVE = "crawls:active";

    /**
     * The LIST of announcements of retired crawls that no Kafka has taken yet, oldest first, each
     * {@code ["<spiderid>","<appid>","<crawlid>",<pages>]}.
     */
    public static final String CRAWLS_COMPLETED = "crawls:completed";

    /**
     * The SET of crawls ({@code <spiderid>:<appid>:<crawlid>}) whose accounting cannot answer for
     * them, because a process that keeps none (a Python crawler or Kafka monitor) moved some of their
     * requests: their answers and completion come from reading the queues (docs/operations.md
     * "Mixed Python and Java clusters").
     */
    public static final String CRAWLS_FOREIGN = "crawls:foreign";

    /**
     * The SET of crawls of {@link #CRAWLS_FOREIGN} that a completion check found with nothing queued
     * or leased; the next quiet check that finds the same retires them.
     */
    public static final String CRAWLS_DRAINED = "crawls:drained";

    private Keyspace() {
    }

    /** {@code <spiderid>:blacklist}: the SET of {@code <appid>||<crawlid>} of stopped and expired crawls. */
    public static String blacklist(String spiderId) {
        return spiderId + ":blacklist";
    }

    /** {@code <spiderid>:leased}: lease id to the leased queue member. */
    public static String leased(String spiderId) {
        return spiderId + ":leased";
    }

    /** {@code <spiderid>:leases}: lease id scored by its deadline in epoch milliseconds. */
    public static String leases(String spiderId) {
        return spiderId + ":leases";
    }

    /**
     * {@code <spiderid>:queue_lengths}: domain to the length its queue had when one of our scripts
     * last changed it; a {@code ZCARD} that differs means a process that keeps no accounting moved requests.
     */
    public static String queueLengths(String spiderId) {
        return spiderId + ":queue_lengths";
    }

    /** {@code <spiderid>:active_domains}: domains with queued work, scored by when they became non-empty. */
    public static String activeDomains(String spiderId) {
        return spiderId + ":active_domains";
    }

    /** {@code crawls:<spiderid>:<appid>}: the SET of the app's crawlids that have accounting. */
    public static String crawlsOfApp(String spiderId, String appid) {
        return "crawls:" + spiderId + ":" + appid;
    }

    /** {@code <spiderid>:dupefilter:<crawlid>}: the request fingerprints seen by a crawl. */
    public static String dupefilter(String spiderId, String crawlid) {
        return spiderId + ":dupefilter:" + crawlid;
    }

    /** {@code <spider>:domain_max_page_filter:<domain>:<crawlid>}: a crawl's {@code domain_max_pages} counter. */
    public static String domainMaxPageFilter(String spider, String domain, String crawlid) {
        return spider + ":domain_max_page_filter:" + domain + ":" + crawlid;
    }

    /** {@code <spider>:global_page_count_filter:<domain>:<crawlid>}: the {@code GLOBAL_PAGE_PER_DOMAIN_LIMIT} counter. */
    public static String globalPageCountFilter(String spider, String domain, String crawlid) {
        return spider + ":global_page_count_filter:" + domain + ":" + crawlid;
    }
}
