package org.scrapycluster.crawler.fetch;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpStatusClass;

/**
 * Reads the responses of a connection that carries one exchange at a time: the final answer to a HEAD has no
 * body whatever its headers announce, and it tells whether bytes past the response read are waiting — a
 * server that sent more than it announced, whose connection cannot carry another exchange. A line may end
 * with a bare line feed, as Twisted's parser under Scrapy reads it. Header names and values are taken as sent,
 * without Netty's checks (a name that is no token, a control character in a value), as Twisted and browsers
 * read them; and a response with both Content-Length and {@code Transfer-Encoding: chunked} is read chunked,
 * its Content-Length dropped, on a connection not used again (RFC 9112 §6.3; docs/operations.md, Responses
 * that break the rules).
 */
final class ResponseDecoder extends HttpResponseDecoder {

    private boolean answeringHead;
    private boolean conflictingLengths;

    ResponseDecoder(int maxInitialLine, int maxHeaderBytes, int maxChunkBytes) {
        super(new HttpDecoderConfig().setMaxInitialLineLength(maxInitialLine).setMaxHeaderSize(maxHeaderBytes)
                .setMaxChunkSize(maxChunkBytes).setStrictLineParsing(false)
                .setHeadersFactory(DefaultHttpHeadersFactory.headersFactory().withValidation(false))
                .setTrailersFactory(DefaultHttpHeadersFactory.trailersFactory().withValidation(false)));
    }

    /** Called as a request goes out: the next response answers {@code method}. */
    void expectAnswerTo(String method) {
        answeringHead = method.equals("HEAD");
        conflictingLengths = false;
    }

    /** Whether bytes the server sent are waiting, not yet read as (part of) a response. */
    boolean holdsUnreadBytes() {
        return actualReadableBytes() > 0;
    }

    /**
     * Whether the response last read announced both a Content-Length and a chunked body: its connection cannot
     * be trusted with another exchange. Asking forgets it.
     */
    boolean takeConflictingLengths() {
        boolean conflicting = conflictingLengths;
        conflictingLengths = false;
        return conflicting;
    }

    @Override
    protected boolean isContentAlwaysEmpty(HttpMessage message) {
        boolean interim = ((HttpResponse) message).status().codeClass() == HttpStatusClass.INFORMATIONAL;
        return answeringHead && !interim || super.isContentAlwaysEmpty(message);
    }

    /** Chunked wins over a Content-Length (Netty 4.2 refuses the response by default). */
    @Override
    protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        clearContentLength();
        message.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
        conflictingLengths = true;
    }
}
