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
     * @param violations the reasons, sorted by field: every one, or when there are more than
     *                   {@value ListedDetails#MAX_LISTED} that many of them (a request of a megabyte can break
     *                   hundreds of thousands of rules, and only that many are ever listed)
     * @param count      how many reasons there are in all
     */
    record Invalid(List<Violation> violations, int count) implements ValidationResult {

        public Invalid {
            violations = List.copyOf(violations);
            if (count < violations.size()) {
                throw new IllegalArgumentException(count + " violations in all, but " + violations.size() + " given");
            }
        }

        /** Every reason. */
        public Invalid(List<Violation> violations) {
            this(violations, violations.size());
        }

        /** The reasons as text, one per rule ({@code maxdepth: must be at most 3, was 5}), as {@link #violations}. */
        public List<String> details() {
            return violations.stream().map(Violation::toString).toList();
        }

        /** The reasons as {@link ListedDetails} lists them for their sender: the first, then how many more there are. */
        public List<String> listed() {
            return ListedDetails.of(details(), count);
        }

        /**
         * The reasons in one line, for logs and error answers: {@code maxdepth: must be at most 3, was 5; url: is required},
         * as {@link #listed}.
         */
        public String reason() {
            return String.join("; ", listed());
        }
    }
}
