package org.scrapycluster.bench.micro;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.scrapycluster.crawler.middleware.MetaRefresh;

/**
 * The look the {@code meta-refresh} middleware takes at every HTML page that has no refresh, nearly all of them: the
 * page's first 4,096 bytes decoded and searched.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MetaRefreshBenchmarks {

    private static final int SCANNED_BYTES = 4096;

    private final List<byte[]> pages = SamplePages.html().stream().map(html -> html.getBytes(StandardCharsets.UTF_8)).toList();
    private final List<String> urls = SamplePages.urls();
    private int next;

    @Benchmark
    public Optional<MetaRefresh> pageWithoutRefresh() {
        byte[] page = pages.get(next);
        String start = new String(page, 0, Math.min(page.length, SCANNED_BYTES), StandardCharsets.UTF_8);
        Optional<MetaRefresh> refresh = MetaRefresh.in(start, urls.get(next), StandardCharsets.UTF_8);
        next = (next + 1) % pages.size();
        return refresh;
    }
}
