package org.scrapycluster.common.queue;

import org.scrapycluster.common.keyspace.Keyspace;

/**
 * How the throttle key of a domain is built (docs/compatibility.md §4.3), by {@code SCHEDULER_TYPE_ENABLED}
 * and {@code SCHEDULER_IP_ENABLED}: {@code [<spiderid>:][<public ip>:]<domain>}, giving
 * {@code ex1}, {@code link:ex1}, {@code 1.2.3.4:ex1} or {@code link:1.2.3.4:ex1}. Java and Python
 * crawlers that build it the same way share one window per domain.
 *
 * @param byType whether the spider id is part of the key (throttle per spider type)
 * @param byIp   whether the node's public IP is part of the key (throttle per outgoing address)
 */
public record ThrottleKeyStyle(boolean byType, boolean byIp) {

    /** The throttle key of {@code domain} for a node of spider {@code spiderId} behind {@code publicIp}. */
    public String throttleKey(String spiderId, String publicIp, String domain) {
        return Keyspace.throttleKey(byType ? spiderId : null, byIp ? publicIp : null, domain);
    }
}
