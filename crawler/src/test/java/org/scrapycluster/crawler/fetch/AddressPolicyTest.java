package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AddressPolicyTest {

    @ParameterizedTest(name = "{0} allowed: {1}")
    @CsvSource({
        "127.0.0.1, false", "127.0.0.5, false", "10.1.2.3, false", "172.16.0.1, false", "172.31.255.255, false",
        "172.32.0.1, true", "192.168.1.1, false", "169.254.169.254, false", "100.64.0.1, false", "100.128.0.1, true",
        "0.0.0.0, false", "0.1.2.3, false", "198.18.0.1, false", "224.0.0.1, false", "255.255.255.255, false",
        "8.8.8.8, true", "93.184.216.34, true", "::1, false", "::, false", "fe80::1, false", "fc00::1, false",
        "fd12:3456::1, false", "::ffff:127.0.0.1, false", "::ffff:10.0.0.1, false", "::ffff:8.8.8.8, true",
        "2606:4700::1111, true",
    })
    void publicOnlyRefusesInternalAddresses(String address, boolean allowed) throws UnknownHostException {
        InetAddress parsed = InetAddress.getByName(address);
        assertEquals(allowed, AddressPolicy.PUBLIC_ONLY.allows(parsed));
        assertEquals(true, AddressPolicy.ANY.allows(parsed));
    }
}
