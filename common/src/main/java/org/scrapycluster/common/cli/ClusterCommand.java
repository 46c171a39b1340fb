package org.scrapycluster.common.cli;

/**
 * A subcommand of {@code scrapy-cluster} contributed by a module. Implement it on a picocli
 * {@code @Command} class with a public no-argument constructor and list the class in
 * {@code META-INF/services/org.scrapycluster.common.cli.ClusterCommand}; the root command
 * finds it there and adds it under its {@code @Command(name = ...)}.
 */
public interface ClusterCommand {
}
