package org.scrapycluster.bench.micro;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.Utf8Codec;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.request.RequestCodec;

/**
 * The arguments of the crawler's Redis calls written as Lettuce's event loop writes them, with Lettuce's UTF-8
 * codec ({@code lettuce}) and the cluster's ({@code cluster}): a hand-out decision (eight keys, eight short
 * arguments) and a discovered link's queue member.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RedisArgumentBenchmarks {

    private static final String DOMAIN = "127.0.0.17";

    @Param({"lettuce", "cluster"})
    String codec;

    private RedisCodec<String, String> strings;
    private ByteBuf out;
    private static final String SPIDER = "link";
    /** The throttle key of a domain throttled per spider type. */
    private static final String THROTTLE = Keyspace.throttleKey(SPIDER, null, DOMAIN);

    private final String[] decisionKeys = {Keyspace.queue(SPIDER, DOMAIN), Keyspace.THROTTLE_WINDOW.fill(THROTTLE),
            Keyspace.THROTTLE_TIME.fill(THROTTLE), Keyspace.blacklist(SPIDER), Keyspace.activeDomains(SPIDER), Keyspace.leased(SPIDER),
            Keyspace.leases(SPIDER), Keyspace.THROTTLE_PAUSE.fill(THROTTLE)};
    private final String[] decisionArguments = {"1", "1000000", "0", "600000", "node-3f2a91c0-1", SPIDER, DOMAIN, "64"};
    private final String member = new RequestCodec().encode(CrawlRequest.get(SamplePages.urls().get(1), Map.ofEntries(
            Map.entry("url", SamplePages.urls().getFirst()), Map.entry("appid", "bench"), Map.entry("crawlid", "c1"),
            Map.entry("spiderid", SPIDER), Map.entry("priority", -9), Map.entry("maxdepth", 2), Map.entry("curdepth", 1),
            Map.entry("allowed_domains", List.of(DOMAIN)), Map.entry("ts", 1_732_460_000.25))));

    @Setup
    public void setUp() {
        strings = codec.equals("lettuce") ? StringCodec.UTF8 : Utf8Codec.INSTANCE;
        out = ByteBufAllocator.DEFAULT.directBuffer(4096);
    }

    @TearDown
    public void tearDown() {
        out.release();
    }

    @Benchmark
    public int handOutDecision() {
        out.clear();
        new CommandArgs<>(strings).addKeys(decisionKeys).addValues(decisionArguments).encode(out);
        return out.writerIndex();
    }

    @Benchmark
    public int queueMember() {
        out.clear();
        new CommandArgs<>(strings).addValue(member).encode(out);
        return out.writerIndex();
    }
}
