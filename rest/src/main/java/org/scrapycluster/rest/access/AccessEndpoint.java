package org.scrapycluster.rest.access;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.rest.http.Caller;
import org.scrapycluster.rest.http.Endpoint;
import org.scrapycluster.rest.http.Envelope;
import org.scrapycluster.rest.http.HttpAnswer;
import org.scrapycluster.rest.http.HttpCall;

/**
 * {@code GET /access}: what the presented key allows, in the envelope, as
 * {@code data: {"access": "write" | "read", "anonymous": true | false}}; anonymous means keys are
 * off. Like every {@code GET}, it needs a read key when keys are on, so a caller without a valid
 * key gets 401. The web UI asks it to know which actions to offer. The caller is the one the request's head check
 * identified: the key is not looked at again.
 */
public final class AccessEndpoint implements Endpoint {

    private final Envelope envelope;

    public AccessEndpoint(Envelope envelope) {
        this.envelope = envelope;
    }

    @Override
    public HttpAnswer answer(HttpCall call) {
        Caller caller = call.caller();
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("access", caller.access().label());
        data.put("anonymous", caller.anonymous());
        return envelope.success(data);
    }
}
