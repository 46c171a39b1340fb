package org.scrapycluster.common.domain;

import java.net.IDN;
import java.text.ParseException;
import java.util.Locale;

import org.scrapycluster.common.json.UnicodeText;

/**
 * A domain named in a request ({@code zookeeper} requests, docs/api.md) spelled as queue keys, throttles
 * and the blacklist spell it: in lower case, and an internationalised name in its ASCII (punycode) form,
 * converted as {@link UrlHost} converts a URL's host ({@code Bücher.example} is {@code xn--bcher-kva.example}).
 * Nothing else is changed: {@code localhost.}, {@code .co.uk} and {@code 127.0.0.1.} stay as they are.
 */
public final class DomainKey {

    private DomainKey() {
    }

    /**
     * {@code domain} as queue keys spell it.
     *
     * @throws IllegalArgumentException when an internationalised name has no ASCII form (an empty or over-long
     *                                  label, a prohibited character), with the reason as its message
     */
    public static String of(String domain) {
        String lower = domain.toLowerCase(Locale.ROOT);
        if (lower.chars().allMatch(c -> c < 0x80)) {
            return lower;
        }
        // a public suffix as a key (.co.uk) starts with a dot, an empty label IDNA would refuse
        boolean leadingDot = lower.startsWith(".");
        String ascii;
        try {
            ascii = IDN.toASCII(leadingDot ? lower.substring(1) : lower, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            // IDN's reason is its ParseException's, which quotes the name as it is, controls and direction overrides too
            Throwable reason = e.getCause() instanceof ParseException parse ? parse : e;
            throw new IllegalArgumentException(UnicodeText.visible(String.valueOf(reason.getMessage())), e);
        }
        return leadingDot ? "." + ascii : ascii;
    }
}
