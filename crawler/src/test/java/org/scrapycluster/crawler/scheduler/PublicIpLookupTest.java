package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.origin.TestOrigin;

/** The public IP comes from the echo service's answer, or is 127.0.0.1 when the service cannot be reached. */
class PublicIpLookupTest {

    private static final String REGEX = "(\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3})";

    @Test
    void theFirstAddressInTheAnswer() {
        try (TestOrigin origin = TestOrigin.builder().route("/ip", exchange -> exchange.sendText(200, "text/plain", "you are 203.0.113.7\n"))
                .start()) {
            assertEquals("203.0.113.7", new PublicIpLookup(origin.url(0, "/ip"), REGEX, Duration.ofSeconds(3)).lookUp());
        }
    }

    @Test
    void fallsBackWhenTheServiceIsUnreachableOrSaysNothingUseful() {
        PublicIpLookup unreachable = new PublicIpLookup("http://127.0.0.1:" + FreePorts.pick() + "/", REGEX, Duration.ofSeconds(1));
        assertEquals(PublicIpLookup.FALLBACK, unreachable.lookUp());
        assertEquals(PublicIpLookup.FALLBACK, unreachable.lookUp());
        try (TestOrigin origin = TestOrigin.builder().route("/ip", exchange -> exchange.sendText(200, "text/plain", "no address"))
                .start()) {
            assertEquals(PublicIpLookup.FALLBACK, new PublicIpLookup(origin.url(0, "/ip"), REGEX, Duration.ofSeconds(3)).lookUp());
        }
    }
}
