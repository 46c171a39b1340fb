package org.scrapycluster.rest.link;

/** Kafka did not take a record in time, or cannot be reached now. */
public final class KafkaUnavailableException extends Exception {

    private static final long serialVersionUID = 1L;

    public KafkaUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
