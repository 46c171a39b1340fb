package org.scrapycluster.crawler.middleware;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadResponse;
import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.api.ExtensionSettings;
import org.scrapycluster.common.url.InvalidUrlException;
import org.scrapycluster.common.url.UrlParts;
import org.scrapycluster.crawler.fetch.FetchResult;

/**
 * {@code meta-refresh}: files the target of an HTML page's {@code <meta http-equiv="refresh">} as a new request, a GET,
 * when the page asks to wait less than {@code METAREFRESH_MAXDELAY} seconds, as Scrapy's meta refresh middleware does
 * in the original (docs/compatibility.md §4.1). The page itself is then not published. It counts against
 * {@code REDIRECT_MAX_TIMES} with the redirects, and is skipped for a HEAD, for a request whose meta sets
 * {@code dont_redirect}, and for a response that asks the crawler to back off ({@link BackoffPolicy}): a "please
 * wait" page of a 429 or a 503 often refreshes itself at once, and following it would skip the pause the server asked
 * for (Scrapy has no such pause, and follows it). {@code METAREFRESH_ENABLED: false} turns it off.
 */
public final class MetaRefreshMiddleware extends NodeMiddleware {

    /** The content types Scrapy reads as HTML, and those it reads as something else. */
    private static final Set<String> HTML_TYPES = Set.of("text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml");
    private static final Set<String> OTHER_KNOWN_TYPES = Set.of("application/atom+xml", "application/rdf+xml", "application/rss+xml",
            "application/xml", "application/json", "application/x-json", "application/json-amazonui-streaming",
            "application/javascript", "application/x-javascript");
    /** How much of a body without a telling content type or file name is looked at for {@code <html>}. */
    private static final int SNIFFED_BYTES = 5000;
    /** Enough bytes for {@link MetaRefresh#SCANNED_CHARS} characters in any encoding. */
    private static final int SCANNED_BYTES = MetaRefresh.SCANNED_CHARS * 4;

    private boolean enabled = true;
    private long maxDelay = 100;

    @Override
    public String name() {
        return "meta-refresh";
    }

    @Override
    public void configure(ExtensionSettings settings) {
        enabled = settings.flag("METAREFRESH_ENABLED", true);
        maxDelay = settings.number("METAREFRESH_MAXDELAY", 100);
    }

    @Override
    public CompletableFuture<DownloadStep> afterResponse(DownloadRequest request, DownloadResponse response) {
        Download download = Download.from(request, name());
        Optional<MetaRefresh> refresh = enabled && !response.failed() && !asksToBackOff(response)
                ? refresh(download, ((FetchedResponse) response).result()) : Optional.empty();
        if (refresh.isEmpty()) {
            return CompletableFuture.completedFuture(new DownloadStep.Proceed(download));
        }
        return CompletableFuture.completedFuture(RedirectMiddleware.step(context().redirect().refresh(download.crawl(),
                refresh.get().url()), download, context()));
    }

    private boolean asksToBackOff(DownloadResponse response) {
        return context().backoff().pauseFor(response.status(), response.header("Retry-After").orElse(null), context().clock().instant())
                .isPresent();
    }

    /** The refresh to follow: one an HTML page asks for within the delay, unless the request is a HEAD or asks for none. */
    private Optional<MetaRefresh> refresh(Download download, FetchResult page) {
        if (download.method().equals("HEAD") || download.crawl().flag("dont_redirect")
                || page.encoding() == null || !isHtml(page)) {
            return Optional.empty();
        }
        return MetaRefresh.in(start(page), page.url(), page.encoding().charset()).filter(found -> found.delay() < maxDelay);
    }

    /**
     * The page's text from its start, at least its first {@link MetaRefresh#SCANNED_CHARS} characters: as many bytes first,
     * which is enough for a page in a single-byte encoding or of ASCII, then enough for any encoding.
     */
    private static String start(FetchResult page) {
        byte[] body = page.body();
        String start = new String(body, 0, Math.min(body.length, MetaRefresh.SCANNED_CHARS), page.encoding().charset());
        if (start.length() >= MetaRefresh.SCANNED_CHARS || body.length <= MetaRefresh.SCANNED_CHARS) {
            return start;
        }
        return new String(body, 0, Math.min(body.length, SCANNED_BYTES), page.encoding().charset());
    }

    /**
     * Whether Scrapy would make the page an HTML response: by its content type; without one it knows, by the extension
     * of the URL's path; without that either, by an {@code <html>} in the body's first 5,000 bytes.
     */
    private static boolean isHtml(FetchResult page) {
        String type = page.headers().first("Content-Type");
        String mime = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (HTML_TYPES.contains(mime)) {
            return true;
        }
        if (mime.startsWith("text/") || OTHER_KNOWN_TYPES.contains(mime)) {
            return false;
        }
        String path;
        try {
            path = UrlParts.split(page.url()).path().toLowerCase(Locale.ROOT);
        } catch (InvalidUrlException e) {
            path = "";
        }
        if (path.endsWith(".html") || path.endsWith(".htm") || path.endsWith(".xhtml")) {
            return true;
        }
        return new String(page.body(), 0, Math.min(page.body().length, SNIFFED_BYTES), StandardCharsets.ISO_8859_1)
                .toLowerCase(Locale.ROOT).contains("<html>");
    }
}
