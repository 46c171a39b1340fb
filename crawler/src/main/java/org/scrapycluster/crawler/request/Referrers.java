package org.scrapycluster.crawler.request;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.url.InvalidUrlException;
import org.scrapycluster.common.url.UrlEscaper;

/**
 * The {@code Referer} header of the requests a spider yields, as Scrapy's referer middleware sets it in the
 * original (docs/compatibility.md §4.13). Each request found on a page gets the referrer of its policy — the
 * request's meta {@code referrer_policy}, else the page's {@code Referrer-Policy} header, else
 * {@code REFERRER_POLICY}; a value that names no policy counts as {@code REFERRER_POLICY} — unless it has a
 * {@code Referer} already. A redirect's new request keeps its {@code Referer}, which stands for the page it was
 * found on, as its policy gives it for the new URL: gone after a redirect from https to http under the default.
 * {@code REFERER_ENABLED} false sets none. Thread-safe.
 */
public final class Referrers {

    private static final String HEADER = "Referer";
    private static final String META_POLICY = "referrer_policy";

    private final boolean enabled;
    private final ReferrerPolicy fallback;

    /**
     * @param enabled  {@code REFERER_ENABLED}
     * @param fallback {@code REFERRER_POLICY}
     */
    public Referrers(boolean enabled, ReferrerPolicy fallback) {
        this.enabled = enabled;
        this.fallback = fallback;
    }

    /**
     * Reads {@code REFERER_ENABLED} and {@code REFERRER_POLICY}.
     *
     * @throws org.scrapycluster.common.settings.SettingsException when the policy names none
     */
    public static Referrers from(Settings settings) {
        String policy = settings.getString("REFERRER_POLICY");
        return new Referrers(settings.getBoolean("REFERER_ENABLED"), ReferrerPolicy.named(policy)
                .orElseThrow(() -> settings.invalid("REFERRER_POLICY", "is '" + policy + "', which names no referrer policy")));
    }

    /**
     * What each request found on the page fetched from {@code pageUrl}, whose response had the {@code Referrer-Policy}
     * {@code policyHeader}, becomes: itself with the {@code Referer} its policy gives. Applied as a request is written,
     * so that the links a node already knows as duplicates cost nothing.
     */
    public UnaryOperator<CrawlRequest> page(String pageUrl, Optional<String> policyHeader) {
        if (!enabled) {
            return UnaryOperator.identity();
        }
        ReferringPage page;
        try {
            page = ReferringPage.of(UrlEscaper.escape(pageUrl));
        } catch (InvalidUrlException unreadable) {
            return UnaryOperator.identity();
        }
        ReferrerPolicy pagePolicy = policyHeader.flatMap(ReferrerPolicy::named).orElse(fallback);
        return child -> {
            if (child.header(HEADER).isPresent()) {
                return child;
            }
            ReferrerPolicy policy = child.meta().get(META_POLICY) != null ? metaPolicy(child) : pagePolicy;
            return policy.referrerFor(page, child.url()).map(referrer -> child.withHeader(HEADER, referrer)).orElse(child);
        };
    }

    /**
     * {@code target}, a request filed again by a downloader middleware, with its {@code Referer} as its policy
     * gives it for its URL when it is a redirect's (its meta has {@code redirect_urls}); unchanged otherwise, or when
     * it has no {@code Referer}.
     */
    public CrawlRequest rescheduled(CrawlRequest target) {
        Optional<String> given = target.header(HEADER);
        if (!enabled || given.isEmpty() || !(target.meta().get("redirect_urls") instanceof List<?> urls) || urls.isEmpty()) {
            return target;
        }
        ReferringPage page;
        try {
            page = ReferringPage.of(UrlEscaper.escape(given.get()));
        } catch (InvalidUrlException unreadable) {
            return target;
        }
        Optional<String> referrer = metaPolicy(target).referrerFor(page, target.url());
        if (referrer.equals(given)) {
            return target;
        }
        return referrer.map(value -> target.withHeader(HEADER, value)).orElseGet(() -> target.withoutHeader(HEADER));
    }

    /** The policy the meta {@code referrer_policy} of {@code request} names, else {@code REFERRER_POLICY}. */
    private ReferrerPolicy metaPolicy(CrawlRequest request) {
        return request.meta().get(META_POLICY) instanceof String name ? ReferrerPolicy.named(name).orElse(fallback) : fallback;
    }
}
