package org.scrapycluster.bench;

/**
 * A subcommand of {@code scrapy-cluster bench} contributed by a module: a picocli
 * {@code @Command} class with a public no-argument constructor, listed in
 * {@code META-INF/services/org.scrapycluster.bench.BenchmarkCommand}. It mixes in a
 * {@link BenchmarkRun} with {@code @Mixin}, which gets the cluster to measure from the parent command
 * and prints the report's first and last lines.
 */
public interface BenchmarkCommand {
}
