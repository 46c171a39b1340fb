package org.scrapycluster.crawler.fetch;

import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpStatusClass;

/**
 * Reads the responses of a connection that carries one exchange at a time: the final answer to a HEAD has no
 * body whatever its headers announce, and it tells whether bytes past the response read are waiting — a
 * server that sent more than it announced, whose connection cannot carry another exchange. A line may end
 * with a bare line feed, as Twisted's parser under Scrapy reads it.
 */
final class ResponseDecoder extends HttpResponseDecoder {

    private boolean answeringHead;

    ResponseDecoder(int maxInitialLine, int maxHeaderBytes, int maxChunkBytes) {
        super(new HttpDecoderConfig().setMaxInitialLineLength(maxInitialLine).setMaxHeaderSize(maxHeaderBytes)
                .setMaxChunkSize(maxChunkBytes).setStrictLineParsing(false));
    }

    /** Called as a request goes out: the next response answers {@code method}. */
    void expectAnswerTo(String method) {
        answeringHead = method.equals("HEAD");
    }

    /** Whether bytes the server sent are waiting, not yet read as (part of) a response. */
    boolean holdsUnreadBytes() {
        return actualReadableBytes() > 0;
    }

    @Override
    protected boolean isContentAlwaysEmpty(HttpMessage message) {
        boolean interim = ((HttpResponse) message).status().codeClass() == HttpStatusClass.INFORMATIONAL;
        return answeringHead && !interim || super.isContentAlwaysEmpty(message);
    }
}
