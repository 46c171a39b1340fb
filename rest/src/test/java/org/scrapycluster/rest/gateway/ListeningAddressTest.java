package org.scrapycluster.rest.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

/** What the gateway's start says of where it listens, and the URL a user of its host opens. */
class ListeningAddressTest {

    /** {@code FLASK_HOST=0.0.0.0} is said as reachable from other hosts, not as loopback only. */
    @Test
    void aGatewayOnEveryAddressSaysSo() {
        assertEquals("every address of this host, port 5343 (http://127.0.0.1:5343 from this host)",
                RestGateway.where(new InetSocketAddress("0.0.0.0", 5343), false));
        assertEquals("every address of this host, port 5343 (http://127.0.0.1:5343 from this host)",
                RestGateway.where(new InetSocketAddress("::", 5343), false));
    }

    @Test
    void aGatewayOnOneAddressNamesIt() {
        assertEquals("http://127.0.0.2:5343", RestGateway.where(new InetSocketAddress("127.0.0.2", 5343), false));
        assertEquals("http://[0:0:0:0:0:0:0:1]:5343", RestGateway.where(new InetSocketAddress("::1", 5343), false));
        assertEquals("http://127.0.0.1:5343", RestGateway.userUrl(new InetSocketAddress("0.0.0.0", 5343), false).toString());
        assertEquals("https://127.0.0.2:5343", RestGateway.where(new InetSocketAddress("127.0.0.2", 5343), true));
    }
}
