package org.scrapycluster.crawler.request;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import org.scrapycluster.common.url.UrlParts;

/**
 * The referrer policies of Scrapy's referer middleware, which the original runs (docs/compatibility.md §4.13):
 * the W3C Referrer Policy values and Scrapy's own default, each deciding what {@code Referer} a request for one
 * URL carries when it was found on the page of another. A referrer is the page's URL without its user info,
 * fragment and default port; an <em>origin</em> referrer keeps only its scheme, host and port, with the path
 * {@code /}. "TLS-protected" is an {@code https} or {@code ftps} URL, which is also all Scrapy counts as
 * potentially trustworthy.
 */
public enum ReferrerPolicy {

    /** {@code no-referrer}: never a referrer. */
    NO_REFERRER("no-referrer", "NoReferrerPolicy") {
        @Override
        Optional<String> referrer(ReferringPage page, String target) {
            return Optional.empty();
        }
    },
    /** {@code no-referrer-when-downgrade}: the full referrer, unless an https page links to a URL that is not. */
    NO_REFERRER_WHEN_DOWNGRADE("no-referrer-when-downgrade", "NoReferrerWhenDowngradePolicy") {
        @Override
        Optional<String> referrer(ReferringPage page, String target) {
            return !page.isTls() || isTls(target) ? Optional.of(page.referrer()) : Optional.empty();
        }
    },
    /** {@code same-origin}: the full referrer to the page's own origin, nothing elsewhere. */
    SAME_ORIGIN("same-origin", "SameOriginPolicy") {
        @Override
        Optional<String> referrer(ReferringPage page, String target) {
            return page.isSameOrigin(target) ? Optional.of(page.referrer()) : Optional.empty();
        }
    },
    /** {@code origin}: the page's origin, everywhere. */
    ORIGIN("origin", "OriginPolicy") {
        @Override
        Optional<String> referrer(ReferringPage page, String target) {
            return Optional.of(page.origin());
        }
    },
    /** {@code strict-origin}: the page's origin, unless an https page links to a URL that is not. */
    STRICT_ORIGIN("strict-origin", "StrictOriginPolicy") {
        @Override
        Optional<String> referrer(ReferringPage page, String target) {
            return !page.isTls() || isTls(target) ? Optional.of(page.origin()) : Optional.empty();
        }
    },
    /** {@code origin-when-cross-origin}: the full referrer to the page's own origin, its origin elsewhere. */
    ORIGIN_WHEN_CROSS_ORIGIN("origin-when-cross-origin", "OriginWhenCrossOriginPolicy") {
        @Override
        Optional<String> referrer(ReferringPage page, String target) {
            return page.isSameOrigin(target) ? Optional.of(page.referrer()) : Optional.of(page.origin());
        }
    },
    /**
     * {@code strict-origin-when-cross-origin}: the full referrer to the page's own origin, its origin elsewhere,
     * nothing when an https page links to a URL that is not.
     */
    STRICT_ORIGIN_WHEN_CROSS_ORIGIN("strict-origin-when-cross-origin", "StrictOriginWhenCrossOriginPolicy") {
        @Override
        Optional<String> referrer(ReferringPage page, String target) {
            if (page.isSameOrigin(target)) {
                return Optional.of(page.referrer());
            }
            return !page.isTls() || isTls(target) ? Optional.of(page.origin()) : Optional.empty();
        }
    },
    /** {@code unsafe-url}: the full referrer, everywhere. */
    UNSAFE_URL("unsafe-url", "UnsafeUrlPolicy") {
        @Override
        Optional<String> referrer(ReferringPage page, String target) {
            return Optional.of(page.referrer());
        }
    },
    /**
     * {@code scrapy-default}, Scrapy's default: {@code no-referrer-when-downgrade}, and no referrer from a
     * {@code file} or {@code s3} page either.
     */
    SCRAPY_DEFAULT("scrapy-default", "DefaultReferrerPolicy") {
        @Override
        Optional<String> referrer(ReferringPage page, String target) {
            return NO_REFERRER_WHEN_DOWNGRADE.referrer(page, target);
        }

        @Override
        boolean refersFrom(String scheme) {
            return super.refersFrom(scheme) && !scheme.equals("file") && !scheme.equals("s3");
        }
    };

    /** Schemes whose pages are never a referrer, whatever the policy. */
    private static final Set<String> LOCAL_SCHEMES = Set.of("about", "blob", "data", "filesystem");
    private static final String SCRAPY_CLASSES = "scrapy.spidermiddlewares.referer.";

    private final String policyName;
    private final String scrapyClass;

    ReferrerPolicy(String policyName, String scrapyClass) {
        this.policyName = policyName;
        this.scrapyClass = scrapyClass;
    }

    /**
     * The policy a header, meta or setting value names, in any case: a policy name, or the Scrapy class that
     * implements it ({@code scrapy.spidermiddlewares.referer.DefaultReferrerPolicy}); the empty value is
     * {@code no-referrer-when-downgrade}, as the W3C specifies. Several comma-separated values name nothing,
     * as in Scrapy 1.5.
     */
    public static Optional<ReferrerPolicy> named(String value) {
        String name = value.toLowerCase(Locale.ROOT);
        if (name.isEmpty()) {
            return Optional.of(NO_REFERRER_WHEN_DOWNGRADE);
        }
        for (ReferrerPolicy policy : values()) {
            if (policy.policyName.equals(name) || value.equals(SCRAPY_CLASSES + policy.scrapyClass)) {
                return Optional.of(policy);
            }
        }
        return Optional.empty();
    }

    /**
     * The {@code Referer} a request for {@code target} (an absolute, escaped URL) carries when it was found on
     * {@code page}, or empty when it carries none.
     */
    public Optional<String> referrerFor(ReferringPage page, String target) {
        return refersFrom(page.scheme()) ? referrer(page, target) : Optional.empty();
    }

    /** The policy's decision, for a page whose scheme may be a referrer. */
    abstract Optional<String> referrer(ReferringPage page, String target);

    /** Whether a page of {@code scheme} may be a referrer at all. */
    boolean refersFrom(String scheme) {
        return !LOCAL_SCHEMES.contains(scheme);
    }

    /** Whether {@code url} is TLS-protected. */
    static boolean isTls(String url) {
        return isTlsScheme(UrlParts.schemeOf(url));
    }

    /** Whether URLs of {@code scheme} are TLS-protected. */
    static boolean isTlsScheme(String scheme) {
        return scheme.equals("https") || scheme.equals("ftps");
    }
}
