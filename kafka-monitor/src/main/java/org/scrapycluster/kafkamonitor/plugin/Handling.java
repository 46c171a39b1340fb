package org.scrapycluster.kafkamonitor.plugin;

import java.util.List;
import java.util.Objects;

/** What a plugin decided for a request that matched its schema. */
public sealed interface Handling {

    /** Accept the request: write {@code effects}, then log {@code logMessage} with the request's fields. */
    static Handling accept(String logMessage, RedisEffect... effects) {
        return new Accept(logMessage, List.of(effects));
    }

    /** Refuse the request, which the sender hears about as if it had failed validation. */
    static Handling refuse(String reason, List<String> details) {
        return new Refuse(reason, details);
    }

    /**
     * The request is accepted.
     *
     * @param logMessage what the monitor logs once the effects are written, e.g. {@code Added crawl to Redis}
     * @param effects    what to write, in order
     */
    record Accept(String logMessage, List<RedisEffect> effects) implements Handling {

        public Accept {
            Objects.requireNonNull(logMessage, "logMessage");
            effects = List.copyOf(effects);
        }
    }

    /**
     * The request is refused although it matched the schema.
     *
     * @param reason  one sentence, e.g. {@code 'hits' and 'window' not set for domain update}
     * @param details what exactly is wrong, one item per field ({@code hits: must not be 0, was 0})
     */
    record Refuse(String reason, List<String> details) implements Handling {

        public Refuse {
            Objects.requireNonNull(reason, "reason");
            details = List.copyOf(details);
        }
    }
}
