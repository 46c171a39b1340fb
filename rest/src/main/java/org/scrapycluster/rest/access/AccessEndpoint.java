package org.scrapycluster.rest.access;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.rest.http.Caller;
import org.scrapycluster.rest.http.Callers;
import org.scrapycluster.rest.http.Endpoint;
import org.scrapycluster.rest.http.Envelope;
import org.scrapycluster.rest.http.HttpAnswer;
import org.scrapycluster.rest.http.HttpCall;

/**
 * {@code GET /access}: what the presented key allows, in the envelope, as
 * {@code data: {"access": "write" | "read", "anonymous": true | false}}; anonymous means keys are
 * off. Like every {@code GET}, it needs a read key when keys are on, so a caller without a valid
 * key gets 401. The web UI asks it to know which actions to offer.
 */
public final class AccessEndpoint implements Endpoint {

    private final Callers callers;
    private final Envelope envelope;

    public AccessEndpoint(Callers callers, Envelope envelope) {
        this.callers = callers;
        this.envelope = envelope;
    }

    @Override
    public HttpAnswer answer(HttpCall call) {
        Caller caller = callers.identify(call.apiKey());
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("access", caller.access().label());
        data.put("anonymous", caller.anonymous());
        return envelope.success(data);
    }
}
