/**
 * What every {@code scrapy-cluster} subcommand shares: the settings and logging options, the
 * interfaces by which a module contributes its own subcommands and benchmarks, and the
 * {@code bench} parent command that gathers the benchmarks.
 */
package org.scrapycluster.common.cli;
