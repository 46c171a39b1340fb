package org.scrapycluster.common.queue;

import java.util.Objects;

import org.scrapycluster.common.keyspace.Keyspace;

/**
 * One crawl of one app on one spider, and the names of its keys.
 *
 * @param spiderId the spider (queue family) it runs on
 * @param appid    the owning application
 * @param crawlid  the crawl
 */
public record CrawlRef(String spiderId, String appid, String crawlid) {

    public CrawlRef {
        Objects.requireNonNull(spiderId, "spiderId");
        Objects.requireNonNull(appid, "appid");
        Objects.requireNonNull(crawlid, "crawlid");
    }

    /**
     * Reads {@code <spiderid>:<appid>:<crawlid>}, the form used in {@code crawls:active}.
     *
     * @throws IllegalArgumentException when it does not have three parts
     */
    public static CrawlRef parse(String name) {
        String[] parts = name.split(":", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not <spiderid>:<appid>:<crawlid>: " + name);
        }
        return new CrawlRef(parts[0], parts[1], parts[2]);
    }

    /** {@code <spiderid>:<appid>:<crawlid>}. */
    public String name() {
        return Keyspace.CRAWL_NAME.fill(spiderId, appid, crawlid);
    }

    /** {@code crawl:<spiderid>:<appid>:<crawlid>}, the accounting HASH. */
    public String accountingKey() {
        return Keyspace.ACCOUNTING.fill(spiderId, appid, crawlid);
    }

    /** {@code purged:<spiderid>:<appid>:<crawlid>}, what its purges removed that no answer counted yet. */
    public String purgedKey() {
        return Keyspace.PURGED.fill(spiderId, appid, crawlid);
    }

    /** {@code <appid>||<crawlid>}, the crawl's member of {@code <spiderid>:blacklist}. */
    public String blacklistEntry() {
        return Keyspace.BLACKLIST_ENTRY.fill(appid, crawlid);
    }

    /** {@code timeout:<spiderid>:<appid>:<crawlid>}, holding the crawl's expires. */
    public String timeoutKey() {
        return Keyspace.TIMEOUT.fill(spiderId, appid, crawlid);
    }
}
