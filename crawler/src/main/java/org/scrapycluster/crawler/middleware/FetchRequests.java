package org.scrapycluster.crawler.middleware;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.scrapycluster.crawler.fetch.FetchRequest;
import org.scrapycluster.crawler.fetch.HeaderMap;
import org.scrapycluster.crawler.request.CookieParser;
import org.scrapycluster.crawler.request.CrawlRequest;

/**
 * The HTTP request for a crawl request (docs/compatibility.md §4.13): its own headers (User-Agent from the
 * crawl's {@code useragent}), and a {@code Cookie} header made from the crawl's cookies only — there is
 * no cookie jar, so cookies set by servers are never sent back. Meta {@code dont_merge_cookies} leaves
 * the request's own headers as they are.
 */
public final class FetchRequests {

    private FetchRequests() {
    }

    /** The request to send for {@code request}. */
    public static FetchRequest of(CrawlRequest request) {
        HeaderMap.Builder headers = HeaderMap.builder();
        boolean ownCookies = !Boolean.TRUE.equals(request.meta().get("dont_merge_cookies"));
        for (Map.Entry<String, List<String>> header : request.headers().entrySet()) {
            if (ownCookies && header.getKey().equalsIgnoreCase("Cookie")) {
                continue;
            }
            header.getValue().forEach(value -> headers.add(header.getKey(), value));
        }
        if (ownCookies && !request.cookies().isEmpty()) {
            headers.add("Cookie", CookieParser.header(request.cookies()));
        }
        return new FetchRequest(request.url(), request.method(), headers.build(), request.body().getBytes(StandardCharsets.UTF_8));
    }
}
