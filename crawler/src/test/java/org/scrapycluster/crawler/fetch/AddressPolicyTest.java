package org.scrapycluster.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.url.UrlParts;

/** How a URL's host is read as an address and judged, the way the fetcher does before it connects. */
class AddressPolicyTest {

    private static final AddressPolicy GUARD = AddressPolicy.publicOnly(List.of());

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(delimiter = '|', value = {
        "http://127.0.0.1/         | 127.0.0.1 is a loopback address",
        "http://127.1/             | 127.0.0.1 is a loopback address",
        "http://2130706433/        | 127.0.0.1 is a loopback address",
        "http://0x7f000001/        | 127.0.0.1 is a loopback address",
        "http://0177.0.0.1/        | 127.0.0.1 is a loopback address",
        "http://0x7f.1/            | 127.0.0.1 is a loopback address",
        "http://127.0.0.1./        | 127.0.0.1 is a loopback address",
        "http://[::1]/             | 0:0:0:0:0:0:0:1 is a loopback address",
        "http://[::ffff:127.0.0.1]/ | 127.0.0.1 is a loopback address",
        "http://[::ffff:7f00:1]:8080/ | 127.0.0.1 is a loopback address",
        "http://0.0.0.0/           | 0.0.0.0 is an unspecified (this-network) address",
        "http://0/                 | 0.0.0.0 is an unspecified (this-network) address",
        "http://[::]/              | 0:0:0:0:0:0:0:0 is an unspecified address",
        "http://10.1.2.3/          | 10.1.2.3 is a private (RFC 1918) address",
        "http://172.16.0.1/        | 172.16.0.1 is a private (RFC 1918) address",
        "http://172.31.255.255/    | 172.31.255.255 is a private (RFC 1918) address",
        "http://192.168.1.1/       | 192.168.1.1 is a private (RFC 1918) address",
        "http://169.254.169.254/   | 169.254.169.254 is a link-local address",
        "http://[fe80::1]/         | fe80:0:0:0:0:0:0:1 is a link-local address",
        "http://[fd12:3456::1]/    | fd12:3456:0:0:0:0:0:1 is a unique-local address",
        "http://[fc00::1]/         | fc00:0:0:0:0:0:0:1 is a unique-local address",
        "http://100.64.0.1/        | 100.64.0.1 is a carrier-grade NAT address",
        "http://100.127.255.254/   | 100.127.255.254 is a carrier-grade NAT address",
        "http://224.0.0.1/         | 224.0.0.1 is a multicast address",
        "http://[ff02::1]/         | ff02:0:0:0:0:0:0:1 is a multicast address",
        "http://255.255.255.255/   | 255.255.255.255 is a reserved or broadcast address",
        "http://198.18.0.1/        | 198.18.0.1 is a benchmarking address",
        "http://192.0.0.192/       | 192.0.0.192 is an IETF protocol assignment address",
        "http://192.0.2.2/         | 192.0.2.2 is a documentation address",
        "http://198.51.100.7/      | 198.51.100.7 is a documentation address",
        "http://203.0.113.255/     | 203.0.113.255 is a documentation address",
        "http://[::ffff:192.0.2.2]/ | 192.0.2.2 is a documentation address",
        "http://[2001:db8::1]/     | 2001:db8:0:0:0:0:0:1 is a documentation address",
        "http://[3fff::1]/         | 3fff:0:0:0:0:0:0:1 is a documentation address",
        "http://[100::1]/          | 100:0:0:0:0:0:0:1 is a discard-only address",
        "http://[64:ff9b:1::a00:1]/ | 64:ff9b:1:0:0:0:a00:1 is a local-use NAT64 address",
        "http://[::ffff:10.0.0.1]/ | 10.0.0.1 is a private (RFC 1918) address",
        "http://[64:ff9b::a9fe:a9fe]/ | 64:ff9b:0:0:0:0:a9fe:a9fe is a link-local address inside an IPv6 address",
        "http://[2002:7f00:1::]/   | 2002:7f00:1:0:0:0:0:0 is a loopback address inside an IPv6 address",
        "http://[64:ff9b::127.0.0.1]/ | 64:ff9b:0:0:0:0:7f00:1 is a loopback address inside an IPv6 address",
        "http://[0:0:0:0:0:ffff:169.254.169.254]/ | 169.254.169.254 is a link-local address",
        "http://[::127.0.0.1]/     | 0:0:0:0:0:0:7f00:1 is a loopback address inside an IPv6 address",
        "http://[::ffff:0:a00:5]/  | 0:0:0:0:ffff:0:a00:5 is a private (RFC 1918) address inside an IPv6 address",
        "http://[2001:2::1]/       | 2001:2:0:0:0:0:0:1 is a benchmarking address",
        "http://[2001:10::1]/      | 2001:10:0:0:0:0:0:1 is an ORCHID address",
        "http://[5f00::1]/         | 5f00:0:0:0:0:0:0:1 is a segment-routing (SRv6) address",
        "http://[::1:0:0:1]/       | 0:0:0:0:1:0:0:1 is a reserved address",
    })
    void everySpellingOfAnInternalAddressIsRefused(String url, String reason) {
        InetAddress address = IpLiterals.parse(UrlParts.split(url).hostname());
        assertNotNull(address, url + " is an address, not a name");
        assertEquals(Optional.of(reason), GUARD.refusal(address));
        assertTrue(AddressPolicy.any().allows(address));
    }

    @ParameterizedTest(name = "{0} is public")
    @ValueSource(strings = {"http://8.8.8.8/", "http://93.184.216.34/", "http://0x5db8d822/", "http://1572395042/",
        "http://172.32.0.1/", "http://100.128.0.1/",
        "http://192.0.1.255/", "http://192.0.3.0/", "http://198.51.99.255/", "http://203.0.114.0/", "http://[2001:db9::1]/", "http://[2606:4700::1111]/", "http://[2001:4860:4860::8888]/",
        "http://[::ffff:8.8.8.8]/", "http://[::ffff:0:808:808]/", "http://[2002:808:808::]/", "http://[64:ff9b::8.8.8.8]/", "http://[2001:4860:4860::8.8.8.8]/"})
    void publicAddressesAreAllowed(String url) {
        InetAddress address = IpLiterals.parse(UrlParts.split(url).hostname());
        assertEquals(Optional.empty(), GUARD.refusal(address), url);
    }

    @ParameterizedTest(name = "{0} is a name")
    @ValueSource(strings = {"example.com", "localhost", "127.0.0.1.nip.io", "0x7f.example", "1.2.3.4.5a", "0x1g"})
    void hostsThatDoNotEndInANumberAreNamesToResolve(String host) {
        assertNull(IpLiterals.parse(host));
    }

    @ParameterizedTest(name = "{0} is no address")
    @ValueSource(strings = {"256.0.0.1", "1.2.3.4.5", "1.256.3", "4294967296", "09.1.1.1", "1..2", "+1.2.3.4", "::zz", "1::2::3",
        "::1.2.3", "fe80::1%eth0", "2001:4860::1%lo"})
    void numericHostsThatAreNoAddressAreRefused(String host) {
        assertThrows(IllegalArgumentException.class, () -> IpLiterals.parse(host));
    }

    @Test
    void theAllowListLetsItsBlocksThroughAndNothingElse() {
        AddressPolicy policy = AddressPolicy.publicOnly(List.of(NetworkRange.parse("127.0.0.2/32"),
                NetworkRange.parse("10.20.0.0/16"), NetworkRange.parse("fd00::5")));
        assertTrue(policy.allows(IpLiterals.parse("127.0.0.2")));
        assertTrue(policy.allows(IpLiterals.parse("10.20.255.1")));
        assertTrue(policy.allows(IpLiterals.parse("fd00::5")));
        assertEquals(Optional.of("127.0.0.3 is a loopback address"), policy.refusal(IpLiterals.parse("127.0.0.3")));
        assertEquals(Optional.of("10.21.0.1 is a private (RFC 1918) address"), policy.refusal(IpLiterals.parse("10.21.0.1")));
        assertTrue(policy.allows(IpLiterals.parse("8.8.8.8")));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"10.0.0.0/33", "10.0.0.0/x", "example.com", "10.0.0/8", "::1/129"})
    void aBadBlockIsAClearError(String block) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NetworkRange.parse(block));
        assertTrue(e.getMessage().contains(block), e.getMessage());
    }
}
