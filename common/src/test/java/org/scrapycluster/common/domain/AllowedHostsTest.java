package org.scrapycluster.common.domain;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AllowedHostsTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final InetAddress EVERYWHERE = address("0.0.0.0");

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1:5343", "127.0.0.1", "localhost:5343", "LOCALHOST", "localhost.", "ui.localhost:5343",
            "[::1]:5343", "[::1]", "192.168.1.20:5343", " 127.0.0.1:5343 "})
    void aLoopbackGatewayAnswersItsAddressesAndLocalhost(String host) {
        assertTrue(AllowedHosts.of(LOOPBACK, List.of()).allows(host), host);
    }

    @ParameterizedTest
    @ValueSource(strings = {"attacker.example:5343", "attacker.example", "localhost.attacker.example", "127.0.0.1.nip.io:5343",
            "[attacker.example]", "", "gateway"})
    void aLoopbackGatewayRefusesOtherNames(String host) {
        assertFalse(AllowedHosts.of(LOOPBACK, List.of()).allows(host), host);
    }

    @Test
    void listedNamesAreAnsweredWhateverTheirCase() {
        AllowedHosts hosts = AllowedHosts.of(LOOPBACK, List.of("Crawler-Gateway.internal"));
        assertTrue(hosts.allows("crawler-gateway.INTERNAL:8080"));
        assertFalse(hosts.allows("other.internal"));
    }

    @Test
    void listedNamesAreReadAsTheHostHeaderIs() {
        AllowedHosts hosts = AllowedHosts.of(LOOPBACK, List.of("gateway.internal.", " Bücher.Example ", "proxy.internal:443"));
        assertTrue(hosts.allows("gateway.internal:5343"));
        assertTrue(hosts.allows("gateway.internal."));
        assertTrue(hosts.allows("xn--bcher-kva.example"));
        assertTrue(hosts.allows("proxy.internal:8443"), "the Host header's port is not compared");
        assertFalse(hosts.allows("internal"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"gateway internal", "", "exa_mple..com"})
    void aListedNameThatIsNoHostNameIsAnError(String name) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> AllowedHosts.of(LOOPBACK, List.of(name)));
        assertTrue(refused.getMessage().startsWith("lists '" + name + "', which is not a host name"), refused.getMessage());
    }

    @Test
    void aGatewayOnAnotherAddressChecksNamesOnlyOnceSomeAreListed() {
        assertTrue(AllowedHosts.of(EVERYWHERE, List.of()).allows("gateway.example.com"));
        AllowedHosts listed = AllowedHosts.of(EVERYWHERE, List.of("gateway.example.com"));
        assertTrue(listed.allows("gateway.example.com:5343"));
        assertTrue(listed.allows("10.0.3.7:5343"), "probes call by the pod's address");
        assertFalse(listed.allows("attacker.example"));
    }

    /** A URL's reading takes the host after user information; a {@code Host} header has none, so one with it is refused. */
    @Test
    void aHostWithUserInformationIsNoHost() {
        AllowedHosts hosts = AllowedHosts.of(LOOPBACK, List.of());
        assertTrue(hosts.allows("127.0.0.1:5344"));
        for (String host : List.of("evil.example@127.0.0.1", "x:y@localhost", "evil.example:80@127.0.0.1", "127.0.0.1/x", "")) {
            assertFalse(hosts.allows(host), host);
        }
    }

    @Test
    void aCallWithoutHostIsNotABrowsers() {
        assertTrue(AllowedHosts.of(LOOPBACK, List.of()).allows(null));
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
