package org.scrapycluster.common.request;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** What validating a request gave: the request with its defaults filled in, or why it was refused. */
public sealed interface ValidationResult {

    /**
     * The request is valid.
     *
     * @param request a copy of the request with every absent property that has a schema default set to it
     */
    record Valid(ObjectNode request) implements ValidationResult {
    }

    /**
     * The request is invalid.
     *
     * @param violations every reason, sorted by field
     */
    record Invalid(List<Violation> violations) implements ValidationResult {

        public Invalid {
            violations = List.copyOf(violations);
        }

        /**
         * The reasons in one line, for logs and error answers: {@code maxdepth: must be at most 3, was 5; url: is required},
         * as {@link ListedDetails} lists them.
         */
        public String reason() {
            return String.join("; ", ListedDetails.of(violations.stream().map(Violation::toString).toList()));
        }
    }
}
