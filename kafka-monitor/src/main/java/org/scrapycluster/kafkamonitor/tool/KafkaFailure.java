package org.scrapycluster.kafkamonitor.tool;

import org.apache.kafka.common.KafkaException;

/** What a Kafka client's failure says to a user of the command line. */
final class KafkaFailure {

    private KafkaFailure() {
    }

    /**
     * The innermost reason of {@code failure}: a client's constructor wraps the one that matters ({@code Invalid url in
     * bootstrap.servers: localhost}) in its own {@code Failed to construct kafka consumer}.
     */
    static String reason(KafkaException failure) {
        Throwable reason = failure;
        while (reason.getCause() != null && reason.getCause().getMessage() != null) {
            reason = reason.getCause();
        }
        return reason.getMessage() == null ? reason.toString() : reason.getMessage();
    }
}
