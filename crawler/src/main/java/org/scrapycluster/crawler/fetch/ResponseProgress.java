package org.scrapycluster.crawler.fetch;

import java.time.Duration;

import io.netty.util.concurrent.ScheduledFuture;

/**
 * The response of a {@link FetchCall} as far as it was read: when the request went and the bytes came, the
 * status line, headers and body, and the read timeout watching it. Touched only by the {@link FetchHandler}
 * of the call's connection, on its event loop, until the call completes.
 */
final class ResponseProgress {

    long sentNanos;
    /** Whether the whole request went out: a server may answer before it did. */
    boolean requestSent;
    long firstByteNanos;
    long lastReadNanos;
    /** Whether the status line and headers were read: a server may send any number as its status, 0 too. */
    boolean headRead;
    int status;
    String reason = "";
    /** The response headers as Netty read them: each byte one char (ISO-8859-1). */
    HeaderMap headers = HeaderMap.empty();
    boolean keepAlive;
    BodyBuffer body;
    ScheduledFuture<?> readTimer;

    /** Whether the request went and no byte came back since: its last read is still the moment it was sent. */
    boolean unanswered() {
        return sentNanos != 0 && lastReadNanos == sentNanos;
    }

    /** Whether any part of a response arrived. */
    boolean started() {
        return headRead;
    }

    /** From the request sent to the first byte of the response; zero when none came. */
    Duration firstByte() {
        return Duration.ofNanos(firstByteNanos > 0 ? firstByteNanos - sentNanos : 0);
    }

    /** The fetch result from what was read of {@code sent}: a success when {@code error} is null. */
    FetchResult report(OutgoingRequest sent, FetchError error, String message, FetchTimings timings) {
        if (!headRead) {
            return ResponseReport.unanswered(sent, error, message, timings);
        }
        return ResponseReport.of(sent, status, reason, headers, body == null ? null : body.toArray(), error, message, timings);
    }
}
