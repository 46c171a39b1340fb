package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.origin.SlowBody;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * The public IP comes from the echo service's answer; when the service cannot be reached, it is the address last found, or
 * 127.0.0.1 before any was.
 */
class PublicIpLookupTest {

    @Test
    void theFirstAddressInTheAnswer() {
        try (TestOrigin origin = TestOrigin.builder().route("/ip", exchange -> exchange.sendText(200, "text/plain", "you are 203.0.113.7\n"))
                .start()) {
            assertEquals("203.0.113.7", lookup(origin.url(0, "/ip"), "3").lookUp());
        }
    }

    @Test
    void fallsBackWhenTheServiceIsUnreachableOrSaysNothingUseful() {
        PublicIpLookup unreachable = lookup("http://127.0.0.1:" + FreePorts.pick() + "/", "1");
        assertEquals(PublicIpLookup.FALLBACK, unreachable.lookUp());
        assertEquals(PublicIpLookup.FALLBACK, unreachable.lookUp());
        try (TestOrigin origin = TestOrigin.builder().route("/ip", exchange -> exchange.sendText(200, "text/plain", "no address"))
                .start()) {
            assertEquals(PublicIpLookup.FALLBACK, lookup(origin.url(0, "/ip"), "3").lookUp());
        }
    }

    /** The timeout bounds the whole answer, not only its headers: a service that trickles cannot hold a node's start. */
    @Test
    void anAnswerThatTricklesIsGivenUpAtTheTimeout() {
        try (TestOrigin origin = TestOrigin.builder().start()) {
            // a thousand seconds of body
            assertEquals(PublicIpLookup.FALLBACK, lookup(origin.url(0, SlowBody.path(100_000, 10, 100, 0)), "1").lookUp());
        }
    }

    @Test
    void aLookUpThatFailsAfterOneWorkedKeepsTheAddressFoundSoThrottleKeysStay() {
        AtomicBoolean answering = new AtomicBoolean(true);
        try (TestOrigin origin = TestOrigin.builder().route("/ip", exchange -> exchange.sendText(answering.get() ? 200 : 503, "text/plain",
                "203.0.113.7")).start()) {
            PublicIpLookup lookup = lookup(origin.url(0, "/ip"), "3");
            assertEquals("203.0.113.7", lookup.lookUp());
            answering.set(false);
            assertEquals("203.0.113.7", lookup.lookUp());
        }
    }

    @Test
    void settingsItCannotUseAreRefusedNamingThem() {
        assertEquals("Setting PUBLIC_IP_URL (from the command line) is 'ip.example.com/raw'; give an http or https URL, or set PUBLIC_IP",
                assertThrows(SettingsException.class, () -> lookup("ip.example.com/raw", "3")).getMessage());
        assertEquals("Setting PUBLIC_IP_URL (from the command line) is 'http://ip example/', which is not a URL: Illegal character in "
                + "authority at index 9", assertThrows(SettingsException.class, () -> lookup("http://ip example/", "3")).getMessage());
        assertEquals("Setting PUBLIC_IP_TIMEOUT (from the command line) must be more than 0",
                assertThrows(SettingsException.class, () -> lookup("http://127.0.0.1/", "0")).getMessage());
        Settings unclosed = Settings.load("crawler", new SettingsSources(null, Map.of(), Map.of("IP_ADDR_REGEX", "(\\d+")));
        assertEquals("Setting IP_ADDR_REGEX (from the command line) is '(\\d+', which is not a regular expression: Unclosed group near index 4",
                assertThrows(SettingsException.class, () -> PublicIpLookup.from(unclosed)).getMessage());
    }

    private static PublicIpLookup lookup(String url, String timeoutSeconds) {
        return PublicIpLookup.from(Settings.load("crawler", new SettingsSources(null, Map.of(),
                Map.of("PUBLIC_IP_URL", url, "PUBLIC_IP_TIMEOUT", timeoutSeconds))));
    }
}
