package org.scrapycluster.rest.link;

/**
 * Kafka refused a record as larger than it takes: the producer's {@code max.request.size} (Kafka's default unless
 * {@code KAFKA_CLIENT_PROPERTIES} sets it) or the broker's or topic's message size limit. No retry can take it, and
 * Kafka is up.
 */
public final class OversizedRecordException extends Exception {

    private static final long serialVersionUID = 1L;

    public OversizedRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
