package org.scrapycluster.common.domain;

import org.scrapycluster.common.cache.ProcessCaches;

import com.github.benmanes.caffeine.cache.Cache;
import com.google.common.net.InternetDomainName;

/**
 * The registered domain of a URL or host: the key part that names a crawl queue
 * ({@code <spiderid>:<domain>:queue}), a throttle and a blacklist entry, identical to the Python
 * original's {@code tldextract} result {@code domain + "." + suffix} with the Public Suffix List's
 * ICANN section (private suffixes are not suffixes here).
 *
 * <ul>
 *   <li>{@code https://www.bbc.co.uk/news} → {@code bbc.co.uk}; {@code foo.blogspot.com} → {@code blogspot.com}.</li>
 *   <li>A host without a public suffix keeps the trailing dot of an empty suffix: {@code localhost} →
 *       {@code localhost.}, {@code a.b.internal} → {@code internal.} (its last label).</li>
 *   <li>An IP address is its own domain with the trailing dot: {@code 127.0.0.1.}; an IPv6 address
 *       is compressed and bracketed: {@code [2001:db8::1].} (the original mangles IPv6 hosts).</li>
 *   <li>A host that is itself a public suffix has an empty domain part: {@code co.uk} → {@code .co.uk}.</li>
 * </ul>
 *
 * <p>The host is read and normalised by {@link UrlHost}: ports and user information are ignored,
 * a URL without a scheme works, letters are folded to lower case, the trailing dot of a fully
 * qualified name is dropped and an internationalised name is keyed by its ASCII (punycode) form, so
 * that a seed typed in Unicode and the ASCII links found by the crawler share one queue and one
 * throttle (a deliberate difference from the original, which keys the Unicode spelling).
 * The suffix list is the one Guava ships ({@link InternetDomainName#registrySuffix()}).
 */
public final class RegisteredDomain {

    /** Registered domains of the host names seen: a crawl's URLs share a few hosts. */
    private static final Cache<String, String> DOMAINS = ProcessCaches.named("registered-domain", 50_000);

    private RegisteredDomain() {
    }

    /**
     * The registered domain of {@code urlOrHost}.
     *
     * @throws IllegalArgumentException when the input has no host or the host is not valid
     */
    public static String of(String urlOrHost) {
        UrlHost host = UrlHost.parse(urlOrHost);
        if (host.ipLiteral()) {
            return host.name() + ".";
        }
        return DOMAINS.get(host.name(), name -> ofName(host));
    }

    private static String ofName(UrlHost host) {
        InternetDomainName name = InternetDomainName.from(host.name());
        if (name.isUnderRegistrySuffix()) {
            return name.topDomainUnderRegistrySuffix().toString();
        }
        if (name.isRegistrySuffix()) {
            return "." + host.name();
        }
        return name.parts().getLast() + ".";
    }

    /**
     * Whether {@code key} is already a registered domain in the form {@link #of} gives, e.g. {@code ebay.com},
     * {@code localhost.}, or {@code .gov.uk} for the host {@code gov.uk}, a public suffix, whose pages are queued so.
     */
    public static boolean isRegisteredDomain(String key) {
        try {
            return key != null && of(key.startsWith(".") ? key.substring(1) : key).equals(key);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
