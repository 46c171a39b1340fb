package org.scrapycluster.crawler.middleware;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.scrapycluster.common.domain.RegisteredDomain;
import org.scrapycluster.crawler.request.CrawlRequest;

/**
 * Scrapy's redirect middleware, whose new request goes back through the scheduler (docs/compatibility.md §4.1):
 * a 301, 302, 303, 307 or 308 with a Location becomes a request for the target with the same meta plus
 * {@code redirect_times}, {@code redirect_ttl} and {@code redirect_urls}; 301, 307 and 308 keep the
 * method and body, 302 and 303 become a GET without a body and its {@code Content-Type} and
 * {@code Content-Length} (a HEAD stays a HEAD). After {@code REDIRECT_MAX_TIMES} redirects the request is
 * discarded. Meta {@code dont_redirect} turns it off for a request, and meta {@code handle_httpstatus_list}
 * (statuses) or {@code handle_httpstatus_all} for the statuses the request wants to see as they are.
 *
 * @param enabled  {@code REDIRECT_ENABLED}
 * @param maxTimes {@code REDIRECT_MAX_TIMES}
 */
public record RedirectPolicy(boolean enabled, int maxTimes) {

    /** What to do with a redirect response. */
    public sealed interface Decision {
    }

    /**
     * Not a redirect to follow (none, or one to a URL that is not http or https, or has no host a queue can be named by):
     * the response goes to the spider.
     */
    public record NotFollowed() implements Decision {
    }

    /** Fetch {@code request} instead. */
    public record Follow(CrawlRequest request) implements Decision {
    }

    /** The request was redirected {@code REDIRECT_MAX_TIMES} times already: drop it. */
    public record TooMany(int redirects) implements Decision {
    }

    /** The decision for a response of {@code status} with redirect target {@code location} to {@code request}. */
    public Decision decide(CrawlRequest request, int status, Optional<String> location) {
        if (!enabled || location.isEmpty() || request.flag("dont_redirect")
                || handlesItself(request, status)) {
            return new NotFollowed();
        }
        CrawlRequest target;
        switch (status) {
            case 301, 307, 308 -> target = request.withUrl(location.get());
            case 302, 303 -> target = request.method().equals("HEAD") ? request.withUrl(location.get()) : asGet(request, location.get());
            default -> {
                return new NotFollowed();
            }
        }
        return follow(request, target);
    }

    /**
     * The decision for a page whose {@code <meta http-equiv="refresh">} sends {@code request} on to {@code url}: a GET,
     * counted against the same limit as a redirect ({@link MetaRefreshMiddleware} decides whether to follow it).
     */
    public Decision refresh(CrawlRequest request, String url) {
        return follow(request, asGet(request, url));
    }

    /**
     * {@code target} in place of {@code request}, with the chain's bookkeeping, or too many redirects; not followed when
     * the target is not http or https ({@code file:}, {@code javascript:}, {@code ftp:}), which no crawler fetches, nor
     * when its host names no queue, which the scheduler would refuse to file ({@code http://0x7f000001/}, an IPv4
     * address in another form than four decimal numbers, docs/differences.md): the response is published as it is, its
     * {@code Location} header saying where it points.
     */
    private Decision follow(CrawlRequest request, CrawlRequest target) {
        if (!target.isHttp() || !queueable(target.url())) {
            return new NotFollowed();
        }
        long ttl = request.number("redirect_ttl", maxTimes);
        long redirects = request.number("redirect_times", 0) + 1;
        if (ttl <= 0 || redirects > maxTimes) {
            return new TooMany((int) redirects - 1);
        }
        List<Object> urls = new ArrayList<>();
        if (request.meta().get("redirect_urls") instanceof List<?> earlier) {
            urls.addAll(earlier);
        }
        urls.add(request.url());
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("redirect_times", redirects);
        meta.put("redirect_ttl", ttl - 1);
        meta.put("redirect_urls", urls);
        return new Follow(target.withMeta(meta));
    }

    private static boolean queueable(String url) {
        try {
            RegisteredDomain.of(url);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Whether the request asked to see responses of {@code status} as they are (meta {@code handle_httpstatus_list}
     * or {@code handle_httpstatus_all}), as a Scrapy spider does to read a redirect itself.
     */
    private static boolean handlesItself(CrawlRequest request, int status) {
        if (request.flag("handle_httpstatus_all")) {
            return true;
        }
        return request.meta().get("handle_httpstatus_list") instanceof List<?> statuses
                && statuses.stream().anyMatch(listed -> listed instanceof Number number && number.doubleValue() == status);
    }

    /** {@code request} sent again to {@code url} as a GET: without its body, nor the headers that described the body. */
    private static CrawlRequest asGet(CrawlRequest request, String url) {
        return request.withUrl(url).withMethod("GET", "").withoutHeader("Content-Type").withoutHeader("Content-Length");
    }
}
