package org.scrapycluster.rest.http;

import java.util.List;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * The one transfer coding the gateway takes: {@code chunked}, alone (RFC 9112 section 6.1). The HTTP decoder frames a
 * body as chunked whenever {@code chunked} is among the codings, and as no body at all when it is not, so a body sent
 * as {@code gzip, chunked} would reach an endpoint still compressed, and one sent as {@code foo} would be read as the
 * requests that follow it; a proxy in front that framed it otherwise would disagree on where each request ends. Such a
 * request is refused with 501 and its connection closed (docs/rest.md "Limits").
 */
final class TransferCoding {

    private static final String CHUNKED = "chunked";

    private TransferCoding() {
    }

    /** Whether the {@code Transfer-Encoding} headers are absent, or name {@code chunked} once and nothing else. */
    static boolean understood(HttpHeaders headers) {
        List<String> values = headers.getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (values.isEmpty()) {
            return true;
        }
        return values.size() == 1 && values.getFirst().strip().equalsIgnoreCase(CHUNKED);
    }
}
