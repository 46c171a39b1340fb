package org.scrapycluster.rest.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The node health truth table of the original's REST tests (docs/compatibility.md §10). */
class IndexEndpointTest {

    @Test
    void greenWithBothYellowWithOneRedWithNone() {
        assertEquals("GREEN", IndexEndpoint.health(true, true));
        assertEquals("YELLOW", IndexEndpoint.health(true, false));
        assertEquals("YELLOW", IndexEndpoint.health(false, true));
        assertEquals("RED", IndexEndpoint.health(false, false));
    }
}
