package org.scrapycluster.crawler.fetch;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.util.AsciiString;

/**
 * The headers of a response as the decoder reads them in, without Netty's checks of names and values, and with a
 * {@code Transfer-Encoding: chunked} line sent twice kept once: Twisted under Scrapy reads such a body chunked, as
 * browsers do, where Netty's decoder refuses a chunked coding applied twice. A single line naming it twice
 * ({@code chunked, chunked}) is kept as sent and refused (Twisted does not read that one as chunked either). See
 * docs/operations.md, Responses that break the rules.
 */
final class ReceivedHeaders extends DefaultHttpHeaders {

    /** Makes the headers of each response the decoder reads; trailers are made as Netty makes them, unchecked. */
    static final HttpHeadersFactory FACTORY = new HttpHeadersFactory() {
        @Override
        public HttpHeaders newHeaders() {
            return new ReceivedHeaders();
        }

        @Override
        public HttpHeaders newEmptyHeaders() {
            return new ReceivedHeaders();
        }
    };

    static final HttpHeadersFactory TRAILERS = DefaultHttpHeadersFactory.trailersFactory().withValidation(false);

    private ReceivedHeaders() {
        super(false);
    }

    @Override
    public HttpHeaders add(CharSequence name, Object value) {
        if (value instanceof CharSequence text && AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.TRANSFER_ENCODING)
                && AsciiString.contentEqualsIgnoreCase(text.toString().strip(), HttpHeaderValues.CHUNKED)
                && containsValue(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED, true)) {
            return this;
        }
        return super.add(name, value);
    }
}
