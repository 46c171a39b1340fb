package org.scrapycluster.crawler.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** Which robot a request is: the node's token is worked out once, not on each request. */
class RobotNameTest {

    @Test
    void theNodesTokenIsWorkedOutOnceFromTheNameGiven() {
        RobotName name = RobotName.of(null, "MyBot/1.0 (+https://example.com/bot)");

        assertEquals("mybot", name.nodeToken());
        assertSame(name.nodeToken(), name.nodeToken(), "the same token each time, not one split again for each request");
        assertSame(name.nodeToken(), name.tokenFor(null));
        assertSame(name.nodeToken(), name.tokenFor(" "));
    }

    @Test
    void aRequestsOwnUserAgentCountsUnlessRobotstxtUserAgentNamesEveryRequest() {
        assertEquals("acmebot", RobotName.of(null, "Scrapy/1.5").tokenFor("AcmeBot/2.0"));
        assertEquals("mybot", RobotName.of("MyBot", "Scrapy/1.5").tokenFor("AcmeBot/2.0"));
        assertEquals("", RobotName.of(null, "*").nodeToken(), "no token: only the * group applies");
    }
}
