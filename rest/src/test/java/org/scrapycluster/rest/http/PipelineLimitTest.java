package org.scrapycluster.rest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;

/** Which pipelined requests of a connection are handed on to be answered, and when the others are. */
class PipelineLimitTest {

    private static final int MAX_PIPELINED = 4;
    private static final int MAX_HELD_BYTES = 1000;

    private final List<String> handedOn = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(
            new PipelineLimit(MAX_PIPELINED, MAX_HELD_BYTES, DistributionSummary.builder("held").register(new SimpleMeterRegistry())),
            new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    handedOn.add(((FullHttpRequest) msg).uri());
                    ReferenceCountUtil.release(msg);
                }

                @Override
                public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
                    handedOn.add(String.valueOf(event));
                }
            });

    @Test
    void noMoreThanTheCapOfRequestsIsHandedOnTheNextOnceOneIsAnswered() {
        for (int i = 0; i < MAX_PIPELINED + 2; i++) {
            channel.writeInbound(request("/" + i, 0));
        }
        assertEquals(List.of("/0", "/1", "/2", "/3"), handedOn);

        answer();
        assertEquals(List.of("/0", "/1", "/2", "/3", "/4"), handedOn);
    }

    /** Each body is kept until its request is answered: past the bytes a connection may hold, the next waits. */
    @Test
    void requestsWhoseBodiesHoldTheMostBytesKeepTheNextWaitingUntilOneIsAnswered() {
        channel.writeInbound(request("/a", 400));
        channel.writeInbound(request("/b", 400));
        channel.writeInbound(request("/c", 400)); // 800 held: below the most, so handed on
        channel.writeInbound(request("/d", 10));
        assertEquals(List.of("/a", "/b", "/c"), handedOn, "1,200 bytes held");

        answer();
        assertEquals(List.of("/a", "/b", "/c", "/d"), handedOn, "800 bytes held");
    }

    /** A body larger than the most bytes is handed on alone, not refused here (its size is the aggregator's to refuse). */
    @Test
    void aRequestLargerThanTheMostBytesIsHandedOnWhenNoneIsBeingAnswered() {
        channel.writeInbound(request("/large", 5000));
        channel.writeInbound(request("/next", 0));
        assertEquals(List.of("/large"), handedOn);

        answer();
        assertEquals(List.of("/large", "/next"), handedOn);
    }

    /**
     * The body of the last request read could not be decoded: that is told after the request, so that the connection,
     * ending once its answers are written, still answers it.
     */
    @Test
    void anUndecodableBodyIsToldAfterTheRequestsWaitingBeforeIt() {
        for (int i = 0; i < MAX_PIPELINED + 1; i++) {
            channel.writeInbound(request("/" + i, 0));
        }
        channel.pipeline().fireUserEventTriggered(Admission.UndecodableBody.EVENT);
        assertEquals(List.of("/0", "/1", "/2", "/3"), handedOn);

        answer();
        assertEquals(List.of("/0", "/1", "/2", "/3", "/4", "EVENT"), handedOn);
    }

    /** With no request waiting here, it is told at once. */
    @Test
    void anUndecodableBodyIsToldAtOnceWhenNoRequestWaits() {
        channel.writeInbound(request("/0", 0));
        channel.pipeline().fireUserEventTriggered(Admission.UndecodableBody.EVENT);
        assertEquals(List.of("/0", "EVENT"), handedOn);
    }

    private static FullHttpRequest request(String uri, int bodyBytes) {
        return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, uri, Unpooled.wrappedBuffer(new byte[bodyBytes]));
    }

    private void answer() {
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        channel.runPendingTasks();
    }
}
