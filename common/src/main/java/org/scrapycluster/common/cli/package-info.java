/**
 * The root command {@code scrapy-cluster} (the services jar's entry point) and what every
 * subcommand shares: the settings and logging options, the
 * interfaces by which a module contributes its own subcommands and benchmarks (the {@code bench}
 * parent lives in {@code standalone}, which can start embedded servers for them), and the launcher
 * that runs one service until it is told to stop.
 */
package org.scrapycluster.common.cli;
