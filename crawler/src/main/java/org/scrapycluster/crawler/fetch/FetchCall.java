package org.scrapycluster.crawler.fetch;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.scrapycluster.common.url.InvalidUrlException;
import org.scrapycluster.common.url.UrlEscaper;
import org.scrapycluster.common.url.UrlResolver;

import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * One fetch on its way: what to send, where, the slot and connection it holds, the response read so far,
 * and its one completion. Fields about the exchange are touched only on the connection's event loop.
 */
final class FetchCall {

    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

    final FetchRequest request;
    final String url;
    final HostKey key;
    final String target;
    final HeaderMap sentHeaders;
    final CompletableFuture<FetchResult> future = new CompletableFuture<>();
    final long createdNanos = System.nanoTime();
    private final AtomicBoolean done = new AtomicBoolean();

    /** The host pool the call belongs to; set and read under the dispatcher's lock. */
    HostPool pool;
    volatile Channel channel;
    volatile boolean started;
    /** Set by a cancellation that found the call neither queued nor started: {@code start} ends it at once. */
    volatile boolean cancelRequested;
    volatile long startedNanos;
    volatile long connectedNanos;
    ScheduledFuture<?> totalTimer;
    ScheduledFuture<?> readTimer;
    boolean reused;
    boolean retried;

    long sentNanos;
    long firstByteNanos;
    long lastReadNanos;
    int status;
    String reason = "";
    /** The response headers as Netty read them: each byte one char (ISO-8859-1). */
    HeaderMap headers = HeaderMap.empty();
    boolean keepAlive;
    BodyBuffer body;

    FetchCall(FetchRequest request, String url, HostKey key, String target, HeaderMap sentHeaders) {
        this.request = request;
        this.url = url;
        this.key = key;
        this.target = target;
        this.sentHeaders = sentHeaders;
    }

    boolean isDone() {
        return done.get();
    }

    /** Claims the call's one completion; false when it was already completed. */
    boolean markDone() {
        return done.compareAndSet(false, true);
    }

    /** Whether any part of a response arrived. */
    boolean responseStarted() {
        return status != 0;
    }

    /** The result from what was read: a success when {@code error} is null. */
    FetchResult result(FetchError error, String message) {
        long now = System.nanoTime();
        FetchTimings timings = new FetchTimings(
                Duration.ofNanos(started ? startedNanos - createdNanos : now - createdNanos),
                Duration.ofNanos(connectedNanos > 0 && !reused ? connectedNanos - startedNanos : 0),
                Duration.ofNanos(firstByteNanos > 0 ? firstByteNanos - sentNanos : 0),
                Duration.ofNanos(now - createdNanos), reused);
        if (!responseStarted()) {
            return new FetchResult(url, 0, "", HeaderMap.empty(), new byte[0], null, sentHeaders, null, error, message,
                    timings);
        }
        HeaderMap reported = HeaderText.decodeValues(headers);
        String contentEncoding = reported.last("Content-Encoding");
        if (!request.method().equals("HEAD") && contentEncoding != null
                && BodyDecoder.DECODED_ENCODINGS.contains(contentEncoding.trim().toLowerCase(Locale.ROOT))) {
            reported = reported.withoutLast("Content-Encoding");
        }
        byte[] bytes = body == null ? new byte[0] : body.toArray();
        DetectedEncoding encoding = EncodingDetector.detect(reported.last("Content-Type"), bytes);
        return new FetchResult(url, status, reason, reported, bytes, encoding, sentHeaders, location(), error, message,
                timings);
    }

    /**
     * Where a redirect points, resolved as Scrapy's redirect middleware does: the Location made safe, then
     * joined to the request URL. Null when this is no redirect or the Location is unusable.
     */
    private String location() {
        String location = headers.last("Location");
        if (!REDIRECTS.contains(status) || location == null) {
            return null;
        }
        try {
            return UrlResolver.resolve(url, UrlEscaper.escape(HeaderText.urlFromHeader(location)));
        } catch (InvalidUrlException e) {
            return null;
        }
    }
}
