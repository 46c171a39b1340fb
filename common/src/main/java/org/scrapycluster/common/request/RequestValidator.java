package org.scrapycluster.common.request;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;

/**
 * Validates requests of one kind against their {@link RequestSchema} with Draft 4 semantics (as
 * the original's jsonschema 2.6 does: booleans and {@code 1.0} are not integers, an explicit
 * {@code null} for a non-nullable field fails) and the {@link SafetyChecks}, then fills in the
 * schema's defaults. The schema's patterns run in linear time ({@link SchemaPatterns}), and so does its check that a
 * list repeats no item ({@link UniqueItems}). The schema is compiled once;
 * validating does not parse text and does not change the given tree. Thread-safe.
 *
 * <p>Of a request that breaks more than {@value ListedDetails#MAX_LISTED} rules, only that many are turned into
 * {@link Violation}s, the rest counted ({@link ErrorTally}): a request of a megabyte can break hundreds of thousands
 * (one for each item of a long list of the wrong type), and keeping, describing and sorting them all took seconds.
 * Those described are the safety checks' first, then the schema's on the request's own fields, then on values inside
 * them, each as found.
 */
public final class RequestValidator {

    private static final SchemaRegistry DRAFT_4 = SchemaRegistry.withDefaultDialect(
            Dialect.builder(Dialects.getDraft4()).keyword(UniqueItems.KEYWORD).build(),
            registry -> registry.schemaRegistryConfig(SchemaRegistryConfig.builder()
                    .regularExpressionFactory(SchemaPatterns.LINEAR).build()));
    /** Draft 4's own schema, which every schema is checked against before it is compiled. */
    private static final Schema DRAFT_4_SCHEMA = DRAFT_4.getSchema(SchemaLocation.of(Dialects.getDraft4().getId()));
    private static final Comparator<Violation> BY_FIELD = Comparator.comparing(Violation::path).thenComparing(Violation::message);

    private final RequestSchema schema;
    private final JsonNode document;
    private final Schema compiled;
    private final SchemaViolations violations;
    private final SafetyChecks checks;

    /** A validator with every safety check on. */
    public RequestValidator(RequestSchema schema) {
        this(schema, SafetyChecks.ALL);
    }

    /**
     * @throws IllegalArgumentException when the schema is not a valid JSON schema
     */
    public RequestValidator(RequestSchema schema, SafetyChecks checks) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.checks = Objects.requireNonNull(checks, "checks");
        this.document = schema.document();
        // the compiler takes a keyword of the wrong type ("type": 5) as a schema that matches nothing, or one thing;
        // patterns are not checked here (Draft 4 has them ECMA-262) but by the compiler, as RE2 runs them
        List<Error> wrong = DRAFT_4_SCHEMA.validate(document,
                context -> context.executionConfig(config -> config.formatAssertionsEnabled(false)));
        if (!wrong.isEmpty()) {
            throw new IllegalArgumentException("the request schema " + schema.name() + " is not a valid JSON schema (Draft 4): "
                    + wrong.getFirst().getInstanceLocation() + " " + wrong.getFirst().getMessage());
        }
        try {
            this.compiled = DRAFT_4.getSchema(document);
            compiled.initializeValidators();
        } catch (SchemaException | IllegalArgumentException e) {
            throw new IllegalArgumentException("the request schema " + schema.name() + " is not a valid JSON schema: "
                    + e.getMessage(), e);
        }
        this.violations = new SchemaViolations(document);
    }

    public RequestSchema schema() {
        return schema;
    }

    /** The request, copied, with its defaults filled in; or why it is invalid. */
    public ValidationResult validate(JsonNode request) {
        Objects.requireNonNull(request, "request");
        if (!request.isObject()) {
            return new ValidationResult.Invalid(List.of(new Violation("request", "must be a JSON object, was "
                    + (request.isArray() ? "an array" : request.isTextual() ? "a string" : request.toString()))));
        }
        ErrorTally refused = tally(request);
        List<Violation> found = checks.check(request, refused.refusedFields());
        if (refused.count() == 0 && found.isEmpty()) {
            ObjectNode filled = ((ObjectNode) request).deepCopy();
            DefaultValues.fill(filled, document);
            return new ValidationResult.Valid(filled);
        }
        List<Violation> listed = new ArrayList<>(found.subList(0, Math.min(found.size(), ListedDetails.MAX_LISTED)));
        refused.described(ListedDetails.MAX_LISTED - listed.size()).forEach(error -> listed.add(violations.of(error, request)));
        listed.sort(BY_FIELD);
        return new ValidationResult.Invalid(listed, found.size() + refused.count());
    }

    /**
     * The schema's errors in {@code request}, tallied as the library finds them. Should the library have swapped the list
     * it was given for another (no Draft 4 keyword does), what it answers is tallied instead.
     */
    private ErrorTally tally(JsonNode request) {
        ErrorTally tally = new ErrorTally();
        List<Error> answered = compiled.validate(request, context -> context.setErrors(tally));
        if (answered == tally) {
            return tally;
        }
        ErrorTally again = new ErrorTally();
        again.addAll(answered);
        return again;
    }
}
