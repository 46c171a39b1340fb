package org.scrapycluster.bench.micro;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.scrapycluster.common.request.LinearRegex;

import com.google.re2j.Pattern;

/**
 * What matching a link against a crawl's {@code allow_regex} costs: a URL pattern of a few live instructions over a
 * typical link, and one whose thousand instructions are all alive at once over a link of 2,000 characters, the cost the
 * crawler's {@code LINK_REGEX_PAGE_SECONDS} bounds (docs/benchmarks.md, "Link regexes").
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LinkRegexBenchmarks {

    private final Pattern typical = LinearRegex.compile("^https?://[^/]+/product/\\d+");
    private final String typicalLink = "http://www.example.com/category/shoes/product/12345?color=red&size=10";
    private final Pattern everyInstructionAlive = LinearRegex.compile("[^Q]{0,1000}Q1");
    private final String longLink = "http://127.0.0.8:8085/l1/" + "b".repeat(1990);

    @Benchmark
    public boolean typicalPatternOverATypicalLink() {
        return typical.matcher(typicalLink).find();
    }

    @Benchmark
    public boolean thousandLiveInstructionsOverALongLink() {
        return everyInstructionAlive.matcher(longLink).find();
    }
}
