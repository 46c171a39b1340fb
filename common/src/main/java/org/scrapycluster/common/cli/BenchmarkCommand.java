package org.scrapycluster.common.cli;

/**
 * A subcommand of {@code scrapy-cluster bench} contributed by a module: a picocli
 * {@code @Command} class with a public no-argument constructor, listed in
 * {@code META-INF/services/org.scrapycluster.common.cli.BenchmarkCommand}. It gets the cluster to
 * measure from its parent command through a {@code @ParentCommand BenchmarkEnvironment} field.
 */
public interface BenchmarkCommand {
}
