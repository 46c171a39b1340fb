package org.scrapycluster.kafkamonitor.tool;

import java.util.Optional;

import org.scrapycluster.common.kafka.KafkaRefusals;

/** What a Kafka client's failure says to a user of the command line. */
final class KafkaFailure {

    private KafkaFailure() {
    }

    /**
     * Kafka's refusal of the client's credentials, as {@link KafkaRefusals} words it, or else the innermost reason of
     * {@code failure}: a client's constructor wraps the one that matters ({@code Invalid url in bootstrap.servers:
     * localhost}) in its own {@code Failed to construct kafka consumer}.
     */
    static String reason(Throwable failure) {
        Optional<String> refusal = KafkaRefusals.of(failure);
        if (refusal.isPresent()) {
            return refusal.get();
        }
        Throwable reason = failure;
        while (reason.getCause() != null && reason.getCause().getMessage() != null) {
            reason = reason.getCause();
        }
        return reason.getMessage() == null ? reason.toString() : reason.getMessage();
    }
}
