package org.scrapycluster.common.cli;

/**
 * A subcommand of {@code scrapy-cluster bench} contributed by a module: a picocli
 * {@code @Command} class with a public no-argument constructor, listed in
 * {@code META-INF/services/org.scrapycluster.common.cli.BenchmarkCommand}. {@link BenchCommand}
 * finds it there and adds it under its {@code @Command(name = ...)}, so that every module can
 * bring its own benchmark ({@code bench kafka-monitor}, ...).
 */
public interface BenchmarkCommand {
}
