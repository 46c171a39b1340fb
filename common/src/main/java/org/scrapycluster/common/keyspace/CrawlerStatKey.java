package org.scrapycluster.common.keyspace;

import java.util.Optional;

/**
 * A name of the crawlers' statistics ({@link Keyspace#CRAWLER_STATS}'s glob matches both forms), read apart: a crawler
 * node's heartbeat, {@code stats:crawler:<host>:<spider>:<uuid12>} ({@link Keyspace#CRAWLER_HEARTBEAT}), or a
 * status-code count, {@code stats:crawler:<host>:<spider>:<code>:<window>} (docs/compatibility.md §3.8).
 *
 * @param host   the node's host name
 * @param spider the spider the node runs
 * @param code   the count's status code; {@code null} for a heartbeat
 * @param window the count's window ({@code 3600}, {@code lifetime}, ...); {@code null} for a heartbeat
 */
public record CrawlerStatKey(String host, String spider, String code, String window) {

    private static final int HEARTBEAT_PARTS = 5;
    private static final int COUNT_PARTS = 6;

    /** {@code key} read apart; empty when it has the parts of neither form. */
    public static Optional<CrawlerStatKey> parse(String key) {
        String[] parts = key.split(":", -1);
        return switch (parts.length) {
            case HEARTBEAT_PARTS -> Optional.of(new CrawlerStatKey(parts[2], parts[3], null, null));
            case COUNT_PARTS -> Optional.of(new CrawlerStatKey(parts[2], parts[3], parts[4], parts[5]));
            default -> Optional.empty();
        };
    }

    /** Whether this is a node's heartbeat, which lives while the node does, rather than a count. */
    public boolean heartbeat() {
        return code == null;
    }
}
