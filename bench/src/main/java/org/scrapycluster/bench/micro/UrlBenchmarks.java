package org.scrapycluster.bench.micro;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import org.scrapycluster.common.domain.RegisteredDomain;
import org.scrapycluster.common.url.RequestFingerprint;
import org.scrapycluster.common.url.UrlCanonicalizer;

/** What every link costs before it is filed: its canonical form, its fingerprint and its registered domain. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class UrlBenchmarks {

    private final List<String> urls = SamplePages.untidyUrls();

    @Benchmark
    public void canonicalize(Blackhole sink) {
        for (String url : urls) {
            sink.consume(UrlCanonicalizer.canonicalize(url));
        }
    }

    @Benchmark
    public void fingerprint(Blackhole sink) {
        for (String url : urls) {
            sink.consume(RequestFingerprint.of(url));
        }
    }

    @Benchmark
    public void registeredDomain(Blackhole sink) {
        for (String url : urls) {
            sink.consume(RegisteredDomain.of(url));
        }
    }
}
