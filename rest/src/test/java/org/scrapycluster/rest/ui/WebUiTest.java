package org.scrapycluster.rest.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.GatewaySettings;
import org.scrapycluster.rest.testing.HeadlessBrowser;
import org.scrapycluster.rest.testing.RunningGateway;

/** The web UI in a real browser against one gateway: what it shows when parts of the cluster, or the gateway, are away. */
@ExtendWith(SharedStack.class)
class WebUiTest {

    @Test
    void theHealthChecksOfAGatewayWithoutRedis(EmbeddedStack stack) {
        try (RunningGateway gateway = RunningGateway.start(GatewaySettings.forStack(stack, FreePorts.pick()).build());
                HeadlessBrowser browser = HeadlessBrowser.start()) {
            browser.driver().get(gateway.client().base().resolve("/ui/").toString());
            // /health answers 503 with its checks: the page shows them, and the gateway it reached
            browser.awaitText("checks", "rest.redis DOWN");
            assertEquals("YELLOW", browser.driver().findElement(By.id("node-health")).getText());
        }
    }

    @Test
    void aGatewayThatStopsAnsweringIsSaid(EmbeddedStack stack) {
        try (RunningGateway gateway = RunningGateway.start(GatewaySettings.forStack(stack).set("LIVE_REFRESH_SECONDS", "1").build());
                HeadlessBrowser browser = HeadlessBrowser.start()) {
            browser.driver().get(gateway.client().base().resolve("/ui/").toString());
            browser.awaitText("live-status", "live · updated");
            // from now on every call of /live is held by the browser and never answered, as by a gateway that hangs
            browser.driver().executeCdpCommand("Fetch.enable", Map.of("patterns", List.of(Map.of("urlPattern", "*/live"))));
            browser.awaitText("live-status", "cannot reach the gateway");
        }
    }
}
