package org.scrapycluster.crawler.fetch;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

/**
 * Reads the responses of a connection that carries one exchange at a time: the final answer to a HEAD has no body
 * whatever its headers announce, and it tells whether bytes past the response read are waiting — a server that sent
 * more than it announced, whose connection cannot carry another exchange. A line may end with a bare line feed, as
 * Twisted's parser under Scrapy reads it. Header names and values are taken as sent, without Netty's checks (a name
 * that is no token, a control character in a value), as Twisted and browsers read them ({@link ReceivedHeaders}), and
 * so is a Content-Length repeated with one value ({@code 5, 5}). A response with both Content-Length and {@code Transfer-Encoding:
 * chunked} is read chunked, its Content-Length dropped, on a connection not used again (RFC 9112 §6.3); so is an
 * HTTP/1.0 response with {@code Transfer-Encoding: chunked}, which Netty 4.2 refuses and Twisted reads chunked (RFC
 * 9112 §6.1 says its framing is faulty: the connection closes after it). See docs/operations.md, Responses that
 * break the rules.
 */
final class ResponseDecoder extends HttpResponseDecoder {

    private boolean answeringHead;
    private boolean untrustedFraming;

    ResponseDecoder(int maxInitialLine, int maxHeaderBytes, int maxChunkBytes) {
        super(new HttpDecoderConfig().setMaxInitialLineLength(maxInitialLine).setMaxHeaderSize(maxHeaderBytes)
                .setMaxChunkSize(maxChunkBytes).setStrictLineParsing(false).setUseRfc9112TransferEncoding(false)
                .setAllowDuplicateContentLengths(true)
                .setHeadersFactory(ReceivedHeaders.FACTORY).setTrailersFactory(ReceivedHeaders.TRAILERS));
    }

    /** Called as a request goes out: the next response answers {@code method}. */
    void expectAnswerTo(String method) {
        answeringHead = method.equals("HEAD");
        untrustedFraming = false;
    }

    /** Whether bytes the server sent are waiting, not yet read as (part of) a response. */
    boolean holdsUnreadBytes() {
        return actualReadableBytes() > 0;
    }

    /**
     * Whether the response last read announced both a Content-Length and a chunked body, or was an HTTP/1.0 one
     * with a chunked body: its connection cannot be trusted with another exchange. Asking forgets it.
     */
    boolean takeUntrustedFraming() {
        boolean untrusted = untrustedFraming;
        untrustedFraming = false;
        return untrusted;
    }

    /** An HTTP/1.0 response's chunked body is read as an HTTP/1.1 one's, its Content-Length dropped, its framing untrusted. */
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        int before = out.size();
        super.decode(ctx, buffer, out);
        for (int i = before; i < out.size(); i++) {
            if (out.get(i) instanceof HttpResponse response && !HttpVersion.HTTP_1_1.equals(response.protocolVersion())
                    && HttpUtil.isTransferEncodingChunked(response)) {
                response.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
                untrustedFraming = true;
            }
        }
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
        untrustedFraming = true;
    }
}
