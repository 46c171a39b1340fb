package org.scrapycluster.bench;

/**
 * A subcommand of {@code scrapy-cluster bench} contributed by a module: a picocli
 * {@code @Command} class with a public no-argument constructor, listed in
 * {@code META-INF/services/org.scrapycluster.bench.BenchmarkCommand}. It gets the cluster to
 * measure from its parent command through a {@code @ParentCommand BenchmarkEnvironment} field.
 */
public interface BenchmarkCommand {
}
