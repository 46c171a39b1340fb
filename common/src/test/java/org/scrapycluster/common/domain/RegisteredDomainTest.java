package org.scrapycluster.common.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class RegisteredDomainTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvFileSource(resources = "/domain/registered-domains.csv", numLinesToSkip = 1, encoding = "UTF-8")
    void keysTheRegisteredDomain(String input, String expected) {
        assertEquals(expected, RegisteredDomain.of(input));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvFileSource(resources = "/domain/registered-domains.csv", numLinesToSkip = 1, encoding = "UTF-8")
    void everyKeyIsInRegisteredDomainForm(String input, String expected) {
        assertTrue(RegisteredDomain.isRegisteredDomain(expected), expected + ", a public suffix's too, with its dot");
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "   ", "http://", "http:///path", "http://:8080/", "?query-only", "#fragment",
        "http://exa mple.com/", "http://[2001:db8::1/", "http://[not-an-address]/", "http://[::1]x/",
        "http://999.1.1.1/", "http://01.2.3.4/", "http://a..b.com/", "http://-bad-.com/", "http://exa%41mple.com/"})
    void rejectsInputWithoutAValidHost(String input) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RegisteredDomain.of(input));
        assertTrue(e.getMessage().startsWith("no host") || e.getMessage().startsWith("not a valid")
                || e.getMessage().startsWith("unclosed"), e.getMessage());
    }

    @Test
    void hostsThatAreNotKeysAreNotInRegisteredDomainForm() {
        assertFalse(RegisteredDomain.isRegisteredDomain("www.ebay.com"));
        assertFalse(RegisteredDomain.isRegisteredDomain("EBAY.com"));
        assertFalse(RegisteredDomain.isRegisteredDomain("localhost"));
        assertFalse(RegisteredDomain.isRegisteredDomain("bücher.de"));
        assertFalse(RegisteredDomain.isRegisteredDomain("not a domain"));
        assertFalse(RegisteredDomain.isRegisteredDomain(null));
    }

    @Test
    void urlHostKeepsTheWholeNormalisedHost() {
        UrlHost host = UrlHost.parse("HTTPS://user@WWW.Bücher.DE.:8443/x");
        assertEquals("www.xn--bcher-kva.de", host.name());
        assertFalse(host.ipLiteral());
        assertEquals("8443", host.port());
        assertEquals(new UrlHost("[2001:db8::7]", true, "80"), UrlHost.parse("http://[2001:db8::7]:80/"));
        assertEquals(new UrlHost("localhost", false, ""), UrlHost.parse("localhost/x"));
    }

    @Test
    void whiteSpaceInAHostIsReadPastButTold() {
        assertEquals("example.com", UrlHost.parse("http:// example.com /x").name(), "read as tldextract reads it");
        for (String url : List.of("http:// example.com/", "http://example.com /x", "http://u@exa\u00a0mple.com:80/", "//a b")) {
            assertTrue(UrlHost.hasWhiteSpaceInHost(url), url);
        }
        for (String url : List.of(" http://example.com/a b ", "http://user name@example.com/", "http://example.com?q=a b")) {
            assertFalse(UrlHost.hasWhiteSpaceInHost(url), url);
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"//cdn.example.net/x, cdn.example.net, false", "svn+ssh://git.example.org/x, git.example.org, false",
        "mailto:editor, mailto, false", "http://10.0.0.255:81/, 10.0.0.255, true", "http://0.0.0.0/, 0.0.0.0, true",
        "http://1.22.203.4?q, 1.22.203.4, true", "http://1.2.3.4.example/, 1.2.3.4.example, false"})
    void urlHostReadsSchemesAndAddresses(String url, String name, boolean ipLiteral) {
        UrlHost host = UrlHost.parse(url);
        assertEquals(name, host.name());
        assertEquals(ipLiteral, host.ipLiteral());
    }
}
