/**
 * The root command {@code scrapy-cluster} (the services jar's entry point) and what every
 * subcommand shares: the settings and logging options, the interface by which a module contributes
 * its own subcommands, the command a service module runs its service with ({@code --check} or a run) and the
 * launcher that runs one service until it is told to stop. Benchmarks
 * live in the {@code bench} module, outside every service's jar.
 */
package org.scrapycluster.common.cli;
