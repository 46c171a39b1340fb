package org.scrapycluster.redismonitor.outbound;

import java.util.Set;

/**
 * Kafka did not take an answer in time (it is unreachable or has no leader for the topic). The
 * job is not at fault: it stays in Redis and is answered once Kafka is back. Kafka may have taken some of the answers
 * sent together ({@link #taken}): those are not to be sent again.
 */
public final class OutboundUnavailableException extends Exception {

    private final Set<Integer> taken;

    /** @param taken the positions, in the list sent, of the answers Kafka took */
    public OutboundUnavailableException(String message, Throwable cause, Set<Integer> taken) {
        super(message, cause);
        this.taken = Set.copyOf(taken);
    }

    /** The positions, in the list sent, of the answers Kafka took before it failed. */
    public Set<Integer> taken() {
        return taken;
    }
}
