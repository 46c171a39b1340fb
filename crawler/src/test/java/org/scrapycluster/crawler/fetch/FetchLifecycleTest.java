package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/** The one completion of a call, as its connection and an abort from outside race for it. */
class FetchLifecycleTest {

    /**
     * A cancel or total timeout that came as the connection was handed over completed the call without seeing the
     * connection, which then carried the request: when the exchange ends, the connection belongs to nobody and is
     * closed, not left open outside the pool and the per-host limits.
     */
    @Test
    void aConnectionWhoseCallWasEndedFromOutsideIsClosedWhenItsExchangeEnds() {
        FetcherConfig config = FetcherConfig.defaults();
        FetchLifecycle lifecycle = new FetchLifecycle(config, null, new Dispatcher(config), null);
        for (boolean succeeded : new boolean[] {true, false}) {
            FetchCall call = new FetchCall(OutgoingRequest.of(FetchRequest.get("http://a.test/"), HeaderMap.builder().build(), false));
            assertTrue(call.markDone(), "ended from outside");
            EmbeddedChannel connection = new EmbeddedChannel();
            if (succeeded) {
                lifecycle.succeeded(call, connection, true);
            } else {
                lifecycle.failed(call, connection, FetchError.RESET, "reset");
            }
            assertFalse(connection.isOpen(), succeeded ? "after an answer" : "after a failure");
        }
    }
}
