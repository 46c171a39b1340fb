package org.scrapycluster.rest.feed;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import org.scrapycluster.common.request.CrawlLimits;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.request.RequestValidator;
import org.scrapycluster.common.request.SafetyChecks;
import org.scrapycluster.common.request.SchemaFit;
import org.scrapycluster.common.request.SchemaShape;
import org.scrapycluster.common.request.ValidationResult;
import org.scrapycluster.common.request.ZookeeperRequests;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.rest.http.Refusal;
import org.scrapycluster.rest.http.RefusedRequestException;

/**
 * Checks a fed request before it is sent, against the four request schemas the Kafka monitor
 * applies (crawl, action, stats, zookeeper) with the same limits and safety checks
 * ({@code CRAWL_*_LIMIT}, {@code REQUEST_CHECK_*}), and a zookeeper request against what the monitor's handler refuses
 * of what its schema lets through ({@link ZookeeperRequests}), so that a request the monitor would reject
 * is refused at once with the reason instead of being answered {@code SUCCESS} and never
 * resolving (the original's weakness docs/compatibility.md W2). {@code FEED_VALIDATION: false} sends any JSON, as
 * the original does, for clusters whose Kafka monitors run plugins of their own.
 */
public final class FeedValidation {

    /** One schema a request may match, with its shape for telling how close a miss is. */
    private record Candidate(RequestValidator validator, SchemaShape shape) {

        Candidate(RequestSchema schema, SafetyChecks checks) {
            this(new RequestValidator(schema, checks), new SchemaShape(schema));
        }
    }

    private final List<Candidate> candidates;

    private FeedValidation(List<Candidate> candidates) {
        this.candidates = candidates;
    }

    /** The validation {@code settings} ask for. */
    public static FeedValidation from(Settings settings) {
        if (!settings.getBoolean("FEED_VALIDATION")) {
            return new FeedValidation(List.of());
        }
        SafetyChecks checks = SafetyChecks.from(settings);
        return new FeedValidation(List.of(
                new Candidate(RequestSchema.scraper(CrawlLimits.from(settings)), checks),
                new Candidate(RequestSchema.builtIn(RequestSchema.ACTION), checks),
                new Candidate(RequestSchema.builtIn(RequestSchema.STATS), checks),
                new Candidate(RequestSchema.builtIn(RequestSchema.ZOOKEEPER), checks)));
    }

    /**
     * Passes when {@code request} matches one of the schemas (or validation is off).
     *
     * @throws RefusedRequestException {@code JSON did not validate against schema.}, with the
     *         violations of the schema it comes closest to, chosen as the Kafka monitor chooses
     *         ({@link SchemaFit}), as the cause
     */
    public void check(JsonNode request) throws RefusedRequestException {
        Candidate closest = null;
        SchemaFit closestFit = null;
        ValidationResult.Invalid closestResult = null;
        for (Candidate candidate : candidates) {
            ValidationResult result = candidate.validator().validate(request);
            if (result instanceof ValidationResult.Valid valid) {
                refuseWhatTheHandlerWould(candidate, valid.request());
                return;
            }
            ValidationResult.Invalid invalid = (ValidationResult.Invalid) result;
            SchemaFit fit = candidate.shape().fit(request, invalid.count());
            if (closestFit == null || fit.closerThan(closestFit)) {
                closest = candidate;
                closestFit = fit;
                closestResult = invalid;
            }
        }
        if (closest != null) {
            throw new RefusedRequestException(Refusal.SCHEMA, "Does not match the " + closest.validator().schema().name()
                    + " schema: " + closestResult.reason());
        }
    }

    /** A zookeeper request its schema lets through is refused as its handler would refuse it, with the handler's words. */
    private static void refuseWhatTheHandlerWould(Candidate candidate, JsonNode request) throws RefusedRequestException {
        if (!candidate.validator().schema().name().equals(RequestSchema.ZOOKEEPER)) {
            return;
        }
        Optional<ZookeeperRequests.Refused> refused = ZookeeperRequests.refusal(request);
        if (refused.isPresent()) {
            throw new RefusedRequestException(Refusal.SCHEMA, refused.get().reason() + ": " + String.join("; ", refused.get().details()));
        }
    }
}
