package org.scrapycluster.common.url;

import java.net.IDN;
import java.util.Locale;

/**
 * Host names in the ASCII form URLs carry. An internationalised name is converted with IDNA 2003 (nameprep
 * and punycode, unassigned code points allowed), which is what Python's {@code idna} codec — and so w3lib —
 * does; a name that IDNA refuses (an empty or over-long label) is kept as it is, as w3lib keeps it.
 */
public final class HostNames {

    /** What ends or splits a URL's network location; no host name holds one. */
    private static final String URL_DELIMITERS = "/?#@:\\[]";

    private HostNames() {
    }

    /**
     * The ASCII (punycode) form of {@code host}; ASCII names and names IDNA refuses are returned unchanged, and so is a
     * name whose nameprep holds a character that delimits a URL's parts ({@code a＃b.com} would become {@code a#b.com},
     * whose {@code #} starts a fragment: a link to one host that reads as a link to another; Python refuses such URLs
     * since 3.6.9).
     */
    public static String toAscii(String host) {
        if (isAscii(host)) {
            return host;
        }
        String ascii;
        try {
            ascii = IDN.toASCII(host, IDN.ALLOW_UNASSIGNED);
        } catch (IllegalArgumentException refused) {
            return host;
        }
        for (int i = 0; i < ascii.length(); i++) {
            if (URL_DELIMITERS.indexOf(ascii.charAt(i)) >= 0) {
                return host;
            }
        }
        return ascii;
    }

    /** {@link #toAscii(String)} in lower case: the form in which two host names compare. */
    public static String normalize(String host) {
        return toAscii(host).toLowerCase(Locale.ROOT);
    }

    /**
     * {@code netloc} with its host in ASCII form and a trailing empty port ({@code "example.com:"}) removed;
     * user info and port are left as they are.
     */
    static String asciiNetloc(String netloc) {
        String stripped = stripEmptyPort(netloc);
        if (isAscii(stripped)) {
            return stripped;
        }
        int[] host = UrlParts.hostRange(stripped);
        String ascii = toAscii(stripped.substring(host[0], host[1]));
        return stripped.substring(0, host[0]) + ascii + stripped.substring(host[1]);
    }

    private static String stripEmptyPort(String netloc) {
        int end = netloc.length();
        while (end > 0 && netloc.charAt(end - 1) == ':') {
            end--;
        }
        return netloc.substring(0, end);
    }

    static boolean isAscii(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}
