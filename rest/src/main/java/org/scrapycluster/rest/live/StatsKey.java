package org.scrapycluster.rest.live;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a {@code stats:…} key is, read from its name (docs/architecture.md "Statistics"): a
 * heartbeat ({@code stats:<service>:self:<host>:<uuid12>}, {@code stats:crawler:<host>:<spider>:<uuid12>})
 * or a rolling-window counter ({@code stats:crawler:<host>:<spider>:<code>:<window>},
 * {@code stats:<service>:<name>:<window>}). Lifetime counters and anything else are of no use to
 * the live view.
 *
 * @param key     the key
 * @param service the service ({@code crawler}, {@code kafka-monitor}, ...)
 * @param host    the host of a heartbeat or crawler counter, else empty
 * @param spider  the spider of a crawler heartbeat or counter, else empty
 * @param nodeId  the uuid12 of a heartbeat, else empty
 * @param status  the status code of a crawler counter, else 0
 * @param window  the window in seconds of a counter, else 0
 */
record StatsKey(String key, String service, String host, String spider, String nodeId, int status, long window) {

    private static final Pattern NODE_ID = Pattern.compile("[0-9a-f]{12}");
    private static final Pattern NUMBER = Pattern.compile("[0-9]{1,9}");

    /** Reads a key name; empty when it is neither a heartbeat nor a rolling-window counter. */
    static Optional<StatsKey> parse(String key) {
        String[] parts = key.split(":", -1);
        if (parts.length < 4 || !parts[0].equals("stats")) {
            return Optional.empty();
        }
        String service = parts[1];
        if (parts.length == 5 && parts[2].equals("self") && NODE_ID.matcher(parts[4]).matches()) {
            return Optional.of(new StatsKey(key, service, parts[3], "", parts[4], 0, 0));
        }
        if (service.equals("crawler") && parts.length == 5 && NODE_ID.matcher(parts[4]).matches()) {
            return Optional.of(new StatsKey(key, service, parts[2], parts[3], parts[4], 0, 0));
        }
        if (service.equals("crawler") && parts.length == 6 && NUMBER.matcher(parts[4]).matches() && NUMBER.matcher(parts[5]).matches()) {
            return Optional.of(new StatsKey(key, service, parts[2], parts[3], "", Integer.parseInt(parts[4]), Long.parseLong(parts[5])));
        }
        if (!service.equals("crawler") && parts.length == 4 && NUMBER.matcher(parts[3]).matches()) {
            return Optional.of(new StatsKey(key, service, "", "", "", 0, Long.parseLong(parts[3])));
        }
        return Optional.empty();
    }

    boolean heartbeat() {
        return !nodeId.isEmpty();
    }

    /** A crawler's response counter. */
    boolean responses() {
        return status > 0;
    }

    /** The counter's name without its window ({@code stats:crawler:h:link:200}), to group its windows. */
    String counter() {
        return key.substring(0, key.lastIndexOf(':'));
    }
}
