package org.scrapycluster.kafkamonitor.intake;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.extension.ExtensionFailureLog;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.kafkamonitor.dispatch.Match;
import org.scrapycluster.kafkamonitor.dispatch.PluginSet;
import org.scrapycluster.kafkamonitor.dispatch.RankedPlugin;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.rejection.Rejection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides about one record (docs/compatibility.md §2.3): reads it as JSON within the configured limits,
 * finds the first plugin whose schema it matches, adds {@code ts} (epoch seconds with microseconds,
 * as the original's {@code time.time()}) and asks the plugin what to write. Writes nothing itself. A plugin that throws
 * (an exception or an error of its own code) or answers nothing refuses the request, with what went wrong as the reason; a request whose checks fail rather than answer is rejected
 * as invalid, so that no record can stop the monitor (docs/architecture.md, guarantee 6). What it decides keeps
 * no parsed tree ({@link AcceptedRequest}, {@link Rejection}): the batch holds it until it is committed.
 */
final class RequestIntake {

    private static final Logger LOG = LoggerFactory.getLogger(RequestIntake.class);

    private final Json json;
    private final PluginSet plugins;
    private final Clock clock;
    private final ExtensionFailureLog pluginFailures = new ExtensionFailureLog(LOG, "kafka_monitor_requests_rejected_total{reason=\"refused\"}");

    RequestIntake(Json json, PluginSet plugins, Clock clock) {
        this.json = json;
        this.plugins = plugins;
        this.clock = clock;
    }

    /** What to do with a record whose value is {@code value} (null for a record without one). */
    Disposition take(byte[] value) {
        JsonNode parsed;
        try {
            parsed = json.readTree(value == null ? new byte[0] : value);
        } catch (JsonInputException e) {
            return new Disposition.Rejected(Rejection.unreadable(e.getMessage()), Optional.empty());
        }
        Match match;
        try {
            match = plugins.match(parsed);
        } catch (RuntimeException e) {
            LOG.atError().setCause(e).log("A request could not be checked against the schemas");
            return uncheckable(parsed, "request: could not be checked: " + e);
        }
        if (match instanceof Match.Unmatched unmatched) {
            return new Disposition.Rejected(Rejection.invalid(parsed, unmatched.closestSchema(), unmatched.violations()), Optional.empty());
        }
        Match.Matched matched = (Match.Matched) match;
        ObjectNode request = matched.request();
        request.set("ts", timestamp());
        Handling handling = handled(matched.plugin(), request);
        if (handling instanceof Handling.Accept accept) {
            try {
                return new Disposition.Accepted(matched.plugin(), AcceptedRequest.of(json, request), accept);
            } catch (RuntimeException e) {
                // the plugin put into the request what JSON cannot hold (an object of its own): its bug, this request's alone
                handling = pluginFailed(matched.plugin(), "it left the request unwritable as JSON: " + e, e);
            }
        }
        Handling.Refuse refuse = (Handling.Refuse) handling;
        return new Disposition.Rejected(Rejection.refused(request, matched.plugin().schemaName(), refuse.reason(), refuse.details()),
                Optional.of(matched.plugin()));
    }

    /**
     * What {@code plugin} says about {@code request}; a refusal naming the plugin when it throws or answers nothing
     * ({@link RankedPlugin#handle}), so that its bug refuses this request alone (and so does a request it accepted after
     * putting into it what JSON cannot hold).
     */
    private Handling handled(RankedPlugin plugin, ObjectNode request) {
        return switch (plugin.handle(request)) {
            case RankedPlugin.Answer.Handled handled -> handled.handling();
            case RankedPlugin.Answer.Failed failed -> pluginFailed(plugin, failed.problem(), failed.failure());
        };
    }

    /** The refusal of a request {@code plugin} failed on ({@code problem}), its failure counted and said once per kind. */
    private Handling pluginFailed(RankedPlugin plugin, String problem, Throwable failure) {
        pluginFailures.failed("plugin " + plugin.name(), failure, "the request is refused", Map.of("plugin", plugin.name()));
        return plugin.failedOn(problem);
    }

    /** A record whose checks failed rather than answered, which would fail again however often it is taken. */
    private static Disposition uncheckable(JsonNode parsed, String problem) {
        return new Disposition.Rejected(Rejection.uncheckable(parsed, problem), Optional.empty());
    }

    /** Now as epoch seconds with six decimals, written plainly ({@code 1709288553.812345}). */
    private DecimalNode timestamp() {
        Instant now = clock.instant();
        return new DecimalNode(BigDecimal.valueOf(now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000, 6));
    }
}
