package org.scrapycluster.kafkamonitor.dispatch;

import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.request.ValidationResult;

/** Which plugin a request is for, or why none is. */
public sealed interface Match {

    /**
     * The request matched a plugin's schema.
     *
     * @param plugin  the first plugin, by rank, whose schema it matched
     * @param request a copy with that schema's defaults filled in
     */
    record Matched(RankedPlugin plugin, ObjectNode request) implements Match {

        public Matched {
            Objects.requireNonNull(plugin, "plugin");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * The request matched no schema.
     *
     * @param closestSchema the schema the request comes closest to (the fewest required fields
     *                      missing and fields the schema does not allow, then the fewest violations,
     *                      then the most fields the schema lists), or {@code none} when no plugin is enabled
     * @param violations    why the request does not match that schema
     */
    record Unmatched(String closestSchema, ValidationResult.Invalid violations) implements Match {

        public Unmatched {
            Objects.requireNonNull(closestSchema, "closestSchema");
            Objects.requireNonNull(violations, "violations");
        }

        /**
         * The violations as text, one per rule: {@code maxdepth: must be at most 3, was 5}; the first, when there are
         * more than {@link org.scrapycluster.common.request.ListedDetails#MAX_LISTED} ({@link ValidationResult.Invalid#count}).
         */
        public List<String> details() {
            return violations.details();
        }
    }
}
