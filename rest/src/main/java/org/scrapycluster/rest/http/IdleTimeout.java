package org.scrapycluster.rest.http;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.ReadTimeoutHandler;

/**
 * Closes a connection that has sent nothing for the idle timeout while the gateway owes it nothing: a client
 * trickling a body, or gone silent halfway through one. A connection whose requests are still being answered is
 * left alone however long they take (the gateway then does not read it, {@link PipelineLimit}), so that pipelined
 * requests waiting for their answers are not cut off; it is timed again once they are answered.
 */
final class IdleTimeout extends ReadTimeoutHandler {

    private final PipelineLimit requests;

    IdleTimeout(Duration timeout, PipelineLimit requests) {
        super(timeout.toMillis(), TimeUnit.MILLISECONDS);
        this.requests = requests;
    }

    @Override
    protected void readTimedOut(ChannelHandlerContext ctx) throws Exception {
        if (!requests.holdsRequests()) {
            super.readTimedOut(ctx);
        }
    }
}
