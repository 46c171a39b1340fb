package org.scrapycluster.common.domain;

import java.net.IDN;
import java.net.InetAddress;
import java.util.Locale;

import org.scrapycluster.common.cache.ProcessCaches;
import org.scrapycluster.common.url.UrlParts;

import com.github.benmanes.caffeine.cache.Cache;
import com.google.common.net.InetAddresses;
import com.google.common.net.InternetDomainName;

/**
 * The host of a URL (or of a bare host name), read the way {@code tldextract} reads it and then
 * normalised, so that every spelling of one host gives one key.
 *
 * <p>Reading: a leading {@code scheme://} (or a bare {@code //}) is skipped; the host part ends at
 * the first {@code /}, {@code ?} or {@code #}; user information before the last {@code @} and a
 * {@code :port} are ignored. A scheme is recognised only when it is followed by {@code //}, so
 * {@code www.stuff.com/x} and {@code localhost:8080} read as hosts, as they do for the crawler,
 * which prefixes {@code http://} to a URL without a scheme.
 *
 * <p>Normalising: surrounding white space and trailing dots are removed (the fully qualified
 * {@code example.com.} is {@code example.com}); letters are folded to lower case;
 * an internationalised name is converted to its ASCII (punycode) form with {@link IDN#toASCII};
 * an IPv6 literal ({@code [2001:DB8:0::1]}, also accepted without brackets when it is the whole
 * input) becomes its compressed form in brackets ({@code [2001:db8::1]}); an IPv4 address must be
 * four decimal numbers of 0 to 255 without leading zeros ({@code tldextract} 2.2 also takes what {@code inet_aton} takes,
 * {@code 127.1} and {@code 0x7f.0.0.1}; refused here, as ambiguous: docs/differences.md). Keys in the
 * form {@link RegisteredDomain} gives ({@code 127.0.0.1.}, {@code [2001:db8::1].}) read back as themselves.
 *
 * @param name the normalised host
 * @param ipLiteral whether the host is an IPv4 address or a bracketed IPv6 address
 * @param port the text after the colon that follows the host, as written and not checked ({@code ""} when there is none)
 */
public record UrlHost(String name, boolean ipLiteral, String port) {

    /** Host names already converted and checked: most URLs of a crawl share a few hosts. */
    private static final Cache<String, String> ASCII_NAMES = ProcessCaches.named("host-ascii", 50_000);

    /**
     * Reads the host of {@code urlOrHost}.
     *
     * @throws IllegalArgumentException when there is no host or it is not a valid host name or address
     */
    public static UrlHost parse(String urlOrHost) {
        if (urlOrHost == null) {
            throw new IllegalArgumentException("no host: the URL is missing");
        }
        String userless = userlessAuthority(urlOrHost.strip());
        if (userless.startsWith("[")) {
            return bracketedAddress(userless, urlOrHost);
        }
        if (userless.indexOf(':') != userless.lastIndexOf(':') && InetAddresses.isInetAddress(userless)) {
            return address(userless, "");
        }
        int colon = userless.indexOf(':');
        String host = stripTrailingDots((colon < 0 ? userless : userless.substring(0, colon)).strip());
        String port = colon < 0 ? "" : userless.substring(colon + 1);
        if (host.isEmpty()) {
            throw new IllegalArgumentException("no host in '" + urlOrHost + "'");
        }
        String lower = host.toLowerCase(Locale.ROOT);
        if (isIpv4(lower)) {
            return new UrlHost(lower, true, port);
        }
        return new UrlHost(asciiName(lower, urlOrHost), false, port);
    }

    /**
     * Whether the host and port of {@code urlOrHost}, as written, have white space in them or at their ends: {@link #parse}
     * reads past it as {@code tldextract} does, but a fetch finds no host in {@code http:// example.com/} or
     * {@code http://example.com /x}.
     */
    public static boolean hasWhiteSpaceInHost(String urlOrHost) {
        return userlessAuthority(urlOrHost.strip()).chars().anyMatch(c -> Character.isWhitespace(c) || Character.isSpaceChar(c));
    }

    /** The authority of {@code text} ({@link #authorityOf}) past any user information: the host and its port. */
    private static String userlessAuthority(String text) {
        String authority = authorityOf(text);
        return authority.substring(authority.lastIndexOf('@') + 1);
    }

    /** {@code text} from past its {@code scheme://} (or bare {@code //}) to its first {@code /}, {@code ?} or {@code #}. */
    private static String authorityOf(String text) {
        int start = authorityStart(text);
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '/' || c == '?' || c == '#') {
                return text.substring(start, i);
            }
        }
        return text.substring(start);
    }

    /** Where the authority starts: past {@code //} after a scheme of letters, digits, {@code + . -} and its colon, or at once. */
    private static int authorityStart(String text) {
        int i = 0;
        while (i < text.length() && UrlParts.isSchemeChar(text.charAt(i))) {
            i++;
        }
        int slashes = i > 0 && i < text.length() && text.charAt(i) == ':' ? i + 1 : 0;
        return text.startsWith("//", slashes) ? slashes + 2 : 0;
    }

    /** Four decimal numbers of 0 to 255 without leading zeros, joined by dots. */
    private static boolean isIpv4(String host) {
        int parts = 0;
        int i = 0;
        while (parts < 4) {
            int start = i;
            int value = 0;
            while (i < host.length() && i - start < 3 && host.charAt(i) >= '0' && host.charAt(i) <= '9') {
                value = value * 10 + host.charAt(i++) - '0';
            }
            int digits = i - start;
            if (digits == 0 || value > 255 || digits > 1 && host.charAt(start) == '0') {
                return false;
            }
            parts++;
            if (parts < 4) {
                if (i >= host.length() || host.charAt(i) != '.') {
                    return false;
                }
                i++;
            }
        }
        return i == host.length();
    }

    private static UrlHost bracketedAddress(String authority, String input) {
        int close = authority.indexOf(']');
        if (close < 0) {
            throw new IllegalArgumentException("unclosed IPv6 address in '" + input + "'");
        }
        String rest = stripTrailingDots(authority.substring(close + 1));
        String literal = authority.substring(1, close);
        if ((!rest.isEmpty() && !rest.startsWith(":")) || !InetAddresses.isInetAddress(literal)) {
            throw new IllegalArgumentException("not a valid IPv6 address in '" + input + "'");
        }
        return address(literal, rest.isEmpty() ? "" : rest.substring(1));
    }

    private static UrlHost address(String literal, String port) {
        InetAddress address = InetAddresses.forString(literal);
        String text = InetAddresses.toAddrString(address);
        return new UrlHost(text.indexOf(':') >= 0 ? "[" + text + "]" : text, true, port);
    }

    private static String asciiName(String host, String input) {
        return ASCII_NAMES.get(host, name -> toAscii(name, input));
    }

    private static String toAscii(String host, String input) {
        String ascii;
        try {
            ascii = IDN.toASCII(host, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a valid host name in '" + input + "': " + e.getMessage(), e);
        }
        if (!InternetDomainName.isValid(ascii)) {
            throw new IllegalArgumentException("not a valid host name in '" + input + "': '" + host + "'");
        }
        return ascii;
    }

    private static String stripTrailingDots(String host) {
        int end = host.length();
        while (end > 0 && host.charAt(end - 1) == '.') {
            end--;
        }
        return host.substring(0, end);
    }
}
