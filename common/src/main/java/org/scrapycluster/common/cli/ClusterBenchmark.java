package org.scrapycluster.common.cli;

/**
 * A benchmark contributed by a module, run as {@code scrapy-cluster bench <name>}. Implement it on
 * a picocli {@code @Command} class with a public no-argument constructor and list the class in
 * {@code META-INF/services/org.scrapycluster.common.cli.ClusterBenchmark}; {@link BenchCommand}
 * finds it there and adds it under its {@code @Command(name = ...)}.
 */
public interface ClusterBenchmark {
}
