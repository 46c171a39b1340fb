package org.scrapycluster.rest.http;

import org.scrapycluster.common.domain.AllowedHosts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Answers a call: refuses it (403) when its {@code Host} header names a host the gateway does not answer for
 * ({@link AllowedHosts}), routes it, lets it through when the path is open or its API key allows what
 * the route needs (401 with {@code WWW-Authenticate: Bearer} without a valid key, 403 for a read
 * key on a write), runs its endpoint, turns a refusal into its envelope and anything
 * else that goes wrong into 500 {@code An error occurred while processing your request.} (the
 * exception only goes to the log, as {@code Uncaught Exception Thrown}), and counts the answer.
 */
public final class Dispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    private static final String UNROUTED = "unknown";

    private final Router router;
    private final Callers callers;
    private final AllowedHosts hosts;
    private final Envelope envelope;
    private final HttpMetrics metrics;
    private final boolean accessLog;

    /**
     * @param accessLog log one line per request ({@code FLASK_LOGGING_ENABLED})
     */
    public Dispatcher(Router router, Callers callers, AllowedHosts hosts, Envelope envelope, HttpMetrics metrics, boolean accessLog) {
        this.router = router;
        this.callers = callers;
        this.hosts = hosts;
        this.envelope = envelope;
        this.metrics = metrics;
        this.accessLog = accessLog;
    }

    /** The answer to {@code call}, its head checked here; blocks while its endpoint does. */
    public HttpAnswer answer(HttpCall call) {
        return answer(call, checkHead(call.host(), call.path(), call.apiKey()));
    }

    /**
     * Checks the head of a call to {@code path}: the {@code Host} header, then, unless the host is refused or the path
     * is open, who presents {@code apiKey} (a hash of the key, compared with the configured keys, key files read when
     * they changed). {@link #answer(HttpCall, HeadCheck)} answers from the result, and the endpoint learns its caller
     * from it.
     */
    HeadCheck checkHead(String host, String path, String apiKey) {
        return new HeadCheck(hosts.allows(host), router.isOpen(path), callers, apiKey);
    }

    /** The answer to {@code call}, whose head {@link #checkHead} checked; blocks while its endpoint does. */
    HttpAnswer answer(HttpCall call, HeadCheck head) {
        long started = System.nanoTime();
        String endpoint = UNROUTED;
        // logged with whatever the call earns, 401 for an unknown key, 404, 405, 403 too; an open path's key is not looked at
        String keyId = head.open() ? null : head.caller().keyId();
        RefusedRequestException refusal = null;
        HttpAnswer answer;
        try {
            // a caller without a valid key learns nothing, not even which paths and methods exist: 401 before routing
            refuseOnItsHead(head, call);
            Router.Route route = router.find(call);
            endpoint = route.name();
            if (!head.open()) {
                authorize(head.caller(), route, call);
            }
            answer = route.answer(call.identifiedBy(head::caller));
        } catch (Router.MethodNotAllowed e) {
            refusal = e;
            endpoint = e.endpoint();
            answer = refused(e).withHeader("Allow", e.allow());
        } catch (RefusedRequestException e) {
            refusal = e;
            if (e.refusal() == Refusal.UNKNOWN_PATH) {
                LOG.atInfo().addKeyValue("path", call.path()).addKeyValue("method", call.method().name())
                        .log("Non-existant route called");
            }
            answer = refused(e);
        } catch (RuntimeException e) {
            LOG.atError().addKeyValue("path", call.path()).setCause(e).log("Uncaught Exception Thrown");
            answer = envelope.failure(500, Envelope.UNKNOWN_ERROR);
        }
        metrics.answered(endpoint, answer.status(), System.nanoTime() - started);
        logAnswer(call.method().name(), call.path(), answer.status(), keyId, call.client(), refusal, started);
        return answer;
    }

    /**
     * The envelope of a refusal that happened before a call could be routed, counted and logged as a routed call is:
     * {@code method} and {@code target} as its request line has them, null when there was none to read (a request that
     * is not HTTP, headers that never came, a connection over the limit).
     */
    public HttpAnswer refusedBeforeRouting(RefusedRequestException refused, String method, String target) {
        long started = System.nanoTime();
        HttpAnswer answer = refused(refused);
        metrics.answered(UNROUTED, answer.status(), System.nanoTime() - started);
        logAnswer(method, target, answer.status(), null, null, refused, started);
        return answer;
    }

    /**
     * One line per answer when {@code FLASK_LOGGING_ENABLED} (the original's {@code GET /path 200}), with the refusal's
     * message and cause when the call was refused, so that the log says what was wrong as the answer did, and the
     * subject of the client certificate, over HTTPS with client certificates, as the key names a caller.
     */
    private void logAnswer(String method, String path, int status, String keyId, String client, RefusedRequestException refused,
            long started) {
        if (!accessLog) {
            return;
        }
        LoggingEventBuilder line = LOG.atInfo().addKeyValue("method", method).addKeyValue("path", path).addKeyValue("status", status)
                .addKeyValue("key", keyId).addKeyValue("ms", (System.nanoTime() - started) / 1_000_000);
        if (client != null) {
            line.addKeyValue("client", client);
        }
        if (refused != null) {
            line.addKeyValue("error", refused.refusal().message());
            if (refused.detail() != null) {
                line.addKeyValue("cause", refused.detail());
            }
        }
        line.log((method == null ? "-" : method) + " " + (path == null ? "-" : path) + " " + status);
    }

    /** Refuses, and logs why, a call whose head earns a refusal whatever its body ({@link HeadCheck#refusal}). */
    private static void refuseOnItsHead(HeadCheck head, HttpCall call) throws RefusedRequestException {
        Refusal refusal = head.refusal();
        if (refusal == null) {
            return;
        }
        if (refusal == Refusal.HOST) {
            LOG.atInfo().addKeyValue("host", call.host()).addKeyValue("path", call.path())
                    .log("Refused a call for another host, as a web page rebinding its name to this gateway would make");
        } else if (head.caller().keyId() != null) {
            LOG.atInfo().addKeyValue("key", head.caller().keyId()).addKeyValue("path", call.path()).log("Refused an unknown API key");
        }
        throw new RefusedRequestException(refusal, null);
    }

    /** Lets the call through when its caller's key allows what the route needs. */
    private static void authorize(Caller caller, Router.Route route, HttpCall call) throws RefusedRequestException {
        if (caller.access() != Access.WRITE && !caller.access().covers(route.accessNeeded(call))) {
            LOG.atInfo().addKeyValue("key", caller.keyId()).addKeyValue("path", call.path()).log("Refused a write with a read key");
            throw new RefusedRequestException(Refusal.FORBIDDEN, null);
        }
    }

    private HttpAnswer refused(RefusedRequestException refused) {
        metrics.refused(refused.refusal());
        HttpAnswer answer = envelope.refused(refused);
        return refused.refusal() == Refusal.UNAUTHORIZED ? answer.withHeader("WWW-Authenticate", "Bearer") : answer;
    }
}
