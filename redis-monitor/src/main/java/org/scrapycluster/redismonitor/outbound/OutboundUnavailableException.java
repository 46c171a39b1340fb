package org.scrapycluster.redismonitor.outbound;

/**
 * Kafka did not take an answer in time (it is unreachable or has no leader for the topic). The
 * job is not at fault: it stays in Redis and is answered once Kafka is back.
 */
public final class OutboundUnavailableException extends Exception {

    public OutboundUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
