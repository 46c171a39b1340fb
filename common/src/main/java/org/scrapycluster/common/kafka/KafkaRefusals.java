package org.scrapycluster.common.kafka;

import java.util.Objects;
import java.util.Optional;

import org.apache.kafka.common.errors.AuthenticationException;
import org.scrapycluster.common.service.Causes;
import org.slf4j.Logger;

/**
 * Kafka refusing a client's credentials: a TLS handshake the broker ended (no client certificate, or one it does not
 * trust), a CA the client does not trust, a SASL login refused. Unlike an outage it lasts until someone mends
 * {@code KAFKA_CLIENT_PROPERTIES} or the broker, and the client's calls fail at once rather than wait, so a loop that
 * retries would log it at every try. Each loop's refusals are said once, and again only when their reason changes or
 * after Kafka took the client in between (docs/operations.md, "Kafka over TLS"). One loop's thread uses an instance.
 */
public final class KafkaRefusals {

    private final Logger log;
    private final String client;
    private String said;

    /**
     * @param log    where the refusals are said
     * @param client what the refused client is for, as a sentence names it ("The Kafka monitor's consumer")
     */
    public KafkaRefusals(Logger log, String client) {
        this.log = log;
        this.client = client;
    }

    /**
     * Kafka's refusal of the client's credentials among {@code failure}'s causes, in a line: Kafka's message and that of
     * the cause that ended the handshake (the TLS alert, the certificate path that could not be built).
     */
    public static Optional<String> of(Throwable failure) {
        return Causes.first(failure, AuthenticationException.class).map(refused -> {
            Throwable ending = Causes.innermost(refused);
            return "Kafka refused the client's credentials: " + refused.getMessage()
                    + (ending == refused ? "" : " (" + ending.getMessage() + ")")
                    + " (KAFKA_CLIENT_PROPERTIES: security.protocol, ssl.*, sasl.*)";
        });
    }

    /**
     * Says {@code failure} when it is Kafka's refusal: at ERROR, without a stack trace, the first time and when its reason
     * changed; at DEBUG while it repeats.
     *
     * @return whether it was a refusal; any other failure is the caller's to say
     */
    public boolean said(Throwable failure) {
        Optional<String> refusal = of(failure);
        if (refusal.isEmpty()) {
            return false;
        }
        if (Objects.equals(said, refusal.get())) {
            log.debug("{} is still refused: {}", client, refusal.get());
        } else {
            log.error("{} is refused: {}; retrying", client, refusal.get());
            said = refusal.get();
        }
        return true;
    }

    /** Kafka took the client: after a refusal said, says so once. */
    public void taken() {
        if (said != null) {
            log.info("{} is taken by Kafka again", client);
            said = null;
        }
    }
}
