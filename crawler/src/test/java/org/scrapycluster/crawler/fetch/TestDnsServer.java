package org.scrapycluster.crawler.fetch;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryDecoder;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsQuestion;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.handler.codec.dns.DnsSection;

/**
 * A DNS server on 127.0.0.1 (UDP, a free port) for resolver tests: it answers A queries for the names it
 * was given, never answers those it was told are lame, and says NXDOMAIN for any other name; an AAAA query for
 * a known name gets an empty answer. It records every question it receives, as {@code "A name"}.
 */
final class TestDnsServer implements AutoCloseable {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel channel;
    private final List<String> questions = Collections.synchronizedList(new ArrayList<>());

    /**
     * @param addresses the IPv4 address of each name it knows (names without the final dot, lower case)
     * @param lame      the names whose queries it never answers
     */
    TestDnsServer(Map<String, String> addresses, Set<String> lame) throws InterruptedException {
        channel = new Bootstrap().group(group).channel(NioDatagramChannel.class).handler(new ChannelInitializer<DatagramChannel>() {
            @Override
            protected void initChannel(DatagramChannel datagrams) {
                datagrams.pipeline().addLast(new DatagramDnsQueryDecoder(), new DatagramDnsResponseEncoder(),
                        new SimpleChannelInboundHandler<DatagramDnsQuery>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, DatagramDnsQuery query) throws Exception {
                                DnsQuestion question = query.recordAt(DnsSection.QUESTION);
                                String name = question.name().toLowerCase(Locale.ROOT).replaceFirst("\\.$", "");
                                questions.add(question.type().name() + " " + name);
                                if (!lame.contains(name)) {
                                    ctx.writeAndFlush(answer(query, question, addresses.get(name)));
                                }
                            }
                        });
            }
        }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
    }

    private static DatagramDnsResponse answer(DatagramDnsQuery query, DnsQuestion question, String address)
            throws UnknownHostException {
        DatagramDnsResponse response = new DatagramDnsResponse(query.recipient(), query.sender(), query.id());
        response.setRecursionAvailable(true); // a recursive resolver's answer: not authoritative
        response.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion(question.name(), question.type()));
        if (address == null) {
            response.setCode(DnsResponseCode.NXDOMAIN);
        } else if (question.type() == DnsRecordType.A) {
            response.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(question.name(), DnsRecordType.A, 60,
                    Unpooled.wrappedBuffer(InetAddress.getByName(address).getAddress())));
        }
        return response;
    }

    /** Where the server listens. */
    InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** Every question received so far, in order, as {@code "A name"}. */
    List<String> questions() {
        return List.copyOf(questions);
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
