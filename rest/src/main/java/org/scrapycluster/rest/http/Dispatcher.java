package org.scrapycluster.rest.http;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a call: routes it, runs its endpoint, turns a refusal into its envelope and anything
 * else that goes wrong into 500 {@code An error occurred while processing your request.} (the
 * exception only goes to the log, as {@code Uncaught Exception Thrown}), and counts the answer.
 */
public final class Dispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    private static final String UNROUTED = "unknown";

    private final Router router;
    private final Envelope envelope;
    private final HttpMetrics metrics;
    private final boolean accessLog;

    /**
     * @param accessLog log one line per request ({@code FLASK_LOGGING_ENABLED})
     */
    public Dispatcher(Router router, Envelope envelope, HttpMetrics metrics, boolean accessLog) {
        this.router = router;
        this.envelope = envelope;
        this.metrics = metrics;
        this.accessLog = accessLog;
    }

    /** The answer to {@code call}; blocks while its endpoint does. */
    public HttpAnswer answer(HttpCall call) {
        long started = System.nanoTime();
        String endpoint = UNROUTED;
        HttpAnswer answer;
        try {
            Router.Route route = router.find(call);
            endpoint = route.name();
            answer = route.endpoint().answer(call);
        } catch (Router.MethodNotAllowed e) {
            endpoint = e.endpoint();
            answer = refused(e).withHeader("Allow", e.allow());
        } catch (RefusedRequestException e) {
            if (e.refusal() == Refusal.UNKNOWN_PATH) {
                LOG.atInfo().addKeyValue("path", call.path()).addKeyValue("method", call.method().name())
                        .log("Non-existant route called");
            }
            answer = refused(e);
        } catch (RuntimeException e) {
            LOG.atError().addKeyValue("path", call.path()).setCause(e).log("Uncaught Exception Thrown");
            answer = envelope.failure(500, Envelope.UNKNOWN_ERROR);
        }
        metrics.answered(endpoint, answer.status());
        if (accessLog) {
            LOG.atInfo().addKeyValue("method", call.method().name()).addKeyValue("path", call.path())
                    .addKeyValue("status", answer.status())
                    .addKeyValue("ms", (System.nanoTime() - started) / 1_000_000)
                    .log(call.method().name() + " " + call.path() + " " + answer.status());
        }
        return answer;
    }

    /** The envelope of a refusal that happened before a call could be routed, counted. */
    public HttpAnswer refusedBeforeRouting(RefusedRequestException refused) {
        HttpAnswer answer = refused(refused);
        metrics.answered(UNROUTED, answer.status());
        return answer;
    }

    private HttpAnswer refused(RefusedRequestException refused) {
        metrics.refused(refused.refusal());
        return envelope.refused(refused);
    }
}
