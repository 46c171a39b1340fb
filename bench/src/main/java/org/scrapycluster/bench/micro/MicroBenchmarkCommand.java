package org.scrapycluster.bench.micro;

import java.util.Collection;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.scrapycluster.bench.BenchmarkCommand;
import org.scrapycluster.bench.BenchmarkRun;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code scrapy-cluster bench micro [REGEX]}: the JMH benchmarks of this package, in forked JVMs. */
@Command(name = "micro", mixinStandardHelpOptions = true,
        description = {"JMH micro benchmarks of the per-page work on one thread; needs no server.",
                "Measured: URL canonicalisation, fingerprints and registered domains, link extraction, body decoding, queue member "
                        + "encoding, Redis arguments, request validation, the meta refresh look, robots.txt rules, link regexes."})
public final class MicroBenchmarkCommand implements BenchmarkCommand, Callable<Integer> {

    /** The gc profiler's result for the bytes allocated per operation. */
    private static final String ALLOCATED = "gc.alloc.rate.norm";

    @Mixin
    BenchmarkRun run;

    @Parameters(arity = "0..1", paramLabel = "REGEX", defaultValue = "org\\.scrapycluster\\.bench\\.micro\\..*",
            description = "Which benchmarks to run, by class and method name (default: all).")
    String include;

    @Option(names = "--forks", defaultValue = "1", paramLabel = "N", description = "JVMs per benchmark (default: ${DEFAULT-VALUE}).")
    int forks;

    @Option(names = "--iterations", defaultValue = "5", paramLabel = "N",
            description = "Measured iterations per fork (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--seconds", defaultValue = "2", paramLabel = "SECONDS",
            description = "Seconds per iteration, warm-up and measured (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--allocation", description = "Also measure the bytes each operation allocates (JMH's gc profiler).")
    boolean allocation;

    @Override
    public Integer call() throws RunnerException {
        run.begin("Micro benchmarks %s: %d fork(s), 3 warm-up and %d measured iterations of %d s", include, forks, iterations, seconds);
        ChainedOptionsBuilder builder = new OptionsBuilder().include(include).forks(forks)
                .warmupIterations(3).warmupTime(TimeValue.seconds(seconds))
                .measurementIterations(iterations).measurementTime(TimeValue.seconds(seconds))
                .shouldFailOnError(true) // a benchmark that throws ends the run with an error, not a row left out
                // no logging in the forks: a library that logs at class load (crawler-commons' URL normaliser does, at
                // DEBUG) would otherwise print into the results, under logback's default of everything at DEBUG
                .jvmArgsAppend("-Xmx512m", "-Dslf4j.provider=org.slf4j.helpers.NOP_FallbackServiceProvider",
                        "-Dslf4j.internal.verbosity=WARN");
        if (allocation) {
            builder.addProfiler(GCProfiler.class);
        }
        Collection<RunResult> results = new Runner(builder.build()).run();
        for (RunResult result : results) {
            var score = result.getPrimaryResult();
            run.out().printf(Locale.ROOT, "%-70s %-16s %12.1f ± %.1f %s%s%n", result.getParams().getBenchmark(),
                    parameters(result.getParams()), score.getScore(), score.getScoreError(), score.getScoreUnit(), allocated(result));
        }
        run.end();
        return results.isEmpty() ? 1 : 0;
    }

    /** The bytes an operation allocated, as JMH's gc profiler measured them; empty when it did not run. */
    private static String allocated(RunResult result) {
        Result<?> bytes = result.getSecondaryResults().get(ALLOCATED);
        return bytes == null ? "" : String.format(Locale.ROOT, "   %,.0f B/op allocated", bytes.getScore());
    }

    /** The benchmark's parameters as {@code name=value}, comma-separated; empty when it has none. */
    private static String parameters(BenchmarkParams params) {
        return params.getParamsKeys().stream().map(key -> key + "=" + params.getParam(key)).collect(Collectors.joining(","));
    }
}
