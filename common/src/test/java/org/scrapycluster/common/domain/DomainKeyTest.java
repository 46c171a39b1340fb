package org.scrapycluster.common.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A domain of a request keyed as the registered domain of a URL on that domain is. */
class DomainKeyTest {

    @Test
    void anInternationalisedDomainIsKeyedAsTheUrlsOnItAre() {
        assertEquals(RegisteredDomain.of("https://www.bücher.de/"), DomainKey.of("Bücher.de"));
        assertEquals("xn--bcher-kva.example", DomainKey.of("BÜCHER.example"));
        assertEquals(RegisteredDomain.of("рф"), DomainKey.of(".рф"));
    }

    @Test
    void anAsciiDomainIsOnlyFoldedToLowerCase() {
        assertEquals("ebay.com", DomainKey.of("EBay.com"));
        assertEquals("localhost.", DomainKey.of("localhost."));
        assertEquals(".co.uk", DomainKey.of(".co.uk"));
        assertEquals("xn--bcher-kva.example", DomainKey.of("xn--bcher-kva.example"));
    }

    @Test
    void aDomainWithoutAnAsciiFormIsRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DomainKey.of("ü".repeat(64) + ".example"));
        assertEquals("The label in the input is too long", e.getMessage());
    }

    @Test
    void aReasonQuotingTheNameShowsItsInvisibleCharacters() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DomainKey.of("\u202egoogle.com"));
        assertEquals("A prohibited code point was found in the input\\u202egoogle", e.getMessage(),
                "the reason without its exception's class, and the right-to-left override written out, not turning the text");
    }
}
