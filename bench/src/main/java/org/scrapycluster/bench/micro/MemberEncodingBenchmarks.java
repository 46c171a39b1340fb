package org.scrapycluster.bench.micro;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.scrapycluster.common.queue.MalformedQueueMemberException;
import org.scrapycluster.common.queue.QueueMember;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.request.RequestCodec;

/** A discovered link as a queue member (the original's serialized request), and back. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MemberEncodingBenchmarks {

    private final RequestCodec codec = new RequestCodec();
    private final CrawlRequest request = CrawlRequest.get(SamplePages.urls().get(1), Map.ofEntries(
            Map.entry("url", SamplePages.urls().getFirst()), Map.entry("appid", "bench"), Map.entry("crawlid", "c1"),
            Map.entry("spiderid", "link"), Map.entry("priority", -9), Map.entry("maxdepth", 2), Map.entry("curdepth", 1),
            Map.entry("retry_times", 0), Map.entry("expires", 0), Map.entry("allowed_domains", List.of("127.0.0.2")),
            Map.entry("attrs", Map.of("customer", "x")), Map.entry("ts", 1_732_460_000.25)));
    private final String member = codec.encode(request);

    @Benchmark
    public String encode() {
        return codec.encode(request);
    }

    @Benchmark
    public CrawlRequest decode() throws MalformedQueueMemberException {
        return codec.decode(member);
    }

    @Benchmark
    public QueueMember readCrawlFields() throws MalformedQueueMemberException {
        return QueueMember.parse(member);
    }
}
