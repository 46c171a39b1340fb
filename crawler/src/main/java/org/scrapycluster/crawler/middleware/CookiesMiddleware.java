package org.scrapycluster.crawler.middleware;

import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.api.DownloaderMiddleware;
import org.scrapycluster.crawler.request.CookieParser;

/**
 * {@code cookies}: sends the crawl's own cookies (its {@code cookie} field) as the {@code Cookie} header,
 * in place of one the request carries (docs/compatibility.md §4.13). There is no cookie jar: cookies set
 * by servers are never sent back. Meta {@code dont_merge_cookies} leaves the request's headers as they are.
 */
public final class CookiesMiddleware implements DownloaderMiddleware {

    @Override
    public String name() {
        return "cookies";
    }

    @Override
    public CompletableFuture<DownloadStep> beforeRequest(DownloadRequest request) {
        Download download = Download.from(request, name());
        if (download.meta().containsKey("dont_merge_cookies")) { // its presence, whatever its value, as in the original
            return CompletableFuture.completedFuture(new DownloadStep.Proceed(download));
        }
        Download sent = download.withoutHeader("Cookie");
        if (!download.crawl().cookies().isEmpty()) {
            sent = sent.addingHeader("Cookie", CookieParser.header(download.crawl().cookies()));
        }
        return CompletableFuture.completedFuture(new DownloadStep.Proceed(sent));
    }
}
