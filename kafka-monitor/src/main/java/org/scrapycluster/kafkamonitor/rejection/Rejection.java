package org.scrapycluster.kafkamonitor.rejection;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import org.scrapycluster.common.request.ListedDetails;
import org.scrapycluster.common.request.ValidationResult;

/**
 * Why one record was not accepted, said for the person who sent it.
 *
 * @param kind    the broad reason
 * @param reason  one sentence: {@code Did not find schema to validate request}, {@code Unparseable JSON Received}, ...
 * @param schema  the schema the violations refer to, when there is one
 * @param details what exactly is wrong, one item per rule: {@code maxdepth: must be at most 3, was 5};
 *                listed as {@link ListedDetails} lists them: each cut, and beyond
 *                {@value ListedDetails#MAX_LISTED} lines the rest only counted
 * @param parsed    whether the record was JSON
 * @param recipient whom the error answer goes to: the request's {@code appid} and {@code uuid} when it has both as
 *                  strings. Only these are kept, not the parsed request, which a batch would hold until it is
 *                  committed (docs/operations.md, "Sizing")
 */
public record Rejection(RejectionKind kind, String reason, Optional<String> schema, List<String> details, boolean parsed,
        Optional<Recipient> recipient) {

    /** The reason of a request that matches no schema, as the original logs it. */
    private static final String NO_SCHEMA = "Did not find schema to validate request";

    public Rejection {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(recipient, "recipient");
        details = ListedDetails.of(details);
    }

    /** A record the monitor could not read as JSON. */
    public static Rejection unreadable(String problem) {
        return new Rejection(RejectionKind.UNREADABLE, "Unparseable JSON Received", Optional.empty(), List.of(problem), false, Optional.empty());
    }

    /** JSON that matched no schema; {@code schema} is the closest one and {@code violations} its reasons. */
    public static Rejection invalid(JsonNode request, String schema, ValidationResult.Invalid violations) {
        return new Rejection(RejectionKind.INVALID, NO_SCHEMA, Optional.of(schema), violations.listed(), true, Recipient.of(request));
    }

    /** JSON whose check against the schemas failed rather than answered; {@code problem} says how. */
    public static Rejection uncheckable(JsonNode request, String problem) {
        return new Rejection(RejectionKind.INVALID, NO_SCHEMA, Optional.empty(), List.of(problem), true, Recipient.of(request));
    }

    /** A request refused by its plugin ({@code schema}) or by Redis. */
    public static Rejection refused(JsonNode request, String schema, String reason, List<String> details) {
        return refused(Recipient.of(request), schema, reason, details);
    }

    /** A request refused by its plugin ({@code schema}) or by Redis, of which only whom to answer was kept. */
    public static Rejection refused(Optional<Recipient> recipient, String schema, String reason, List<String> details) {
        return new Rejection(RejectionKind.REFUSED, reason, Optional.of(schema), details, true, recipient);
    }

    /**
     * Who sent a request, as its error answer addresses them.
     *
     * @param appid the application
     * @param uuid  the request id the answer carries
     */
    public record Recipient(String appid, String uuid) {

        /**
         * The longest {@code appid} or {@code uuid} an answer is addressed to: no client correlates a longer one (the
         * REST gateway's /poll takes uuids of 100 characters, the built-in schemas ids of 40), and an answer repeating
         * a megabyte of one is larger than Kafka takes, which would be logged as an error at every such record.
         */
        static final int LONGEST = 1_000;

        public Recipient {
            Objects.requireNonNull(appid, "appid");
            Objects.requireNonNull(uuid, "uuid");
        }

        /** The {@code appid} and {@code uuid} of {@code request} when it is an object with both as strings of at most {@link #LONGEST}. */
        public static Optional<Recipient> of(JsonNode request) {
            if (!request.isObject()) {
                return Optional.empty();
            }
            JsonNode appid = request.get("appid");
            JsonNode uuid = request.get("uuid");
            return addressable(appid) && addressable(uuid) ? Optional.of(new Recipient(appid.asText(), uuid.asText())) : Optional.empty();
        }

        private static boolean addressable(JsonNode id) {
            return id != null && id.isTextual() && id.asText().length() <= LONGEST;
        }
    }
}
