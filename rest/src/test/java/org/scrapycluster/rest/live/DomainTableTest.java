package org.scrapycluster.rest.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The domain a throttle key's window or pause belongs to, whatever the key starts with. */
class DomainTableTest {

    private static final String WINDOW = ":throttle_window";

    @Test
    void theDomainIsTheKeysLastPartAnIpv6HostsWithItsColons() {
        assertEquals("example.com", DomainTable.domainOf("example.com" + WINDOW, WINDOW));
        assertEquals("example.com", DomainTable.domainOf("link:1.2.3.4:example.com" + WINDOW, WINDOW));
        assertEquals("127.0.0.1.", DomainTable.domainOf("link:127.0.0.1." + WINDOW, WINDOW));
        assertEquals("[2001:db8::1].", DomainTable.domainOf("[2001:db8::1]." + WINDOW, WINDOW));
        assertEquals("[2001:db8::1].", DomainTable.domainOf("link:1.2.3.4:[2001:db8::1].:throttle_pause", ":throttle_pause"));
    }
}
