/**
 * What every {@code scrapy-cluster} subcommand shares: the settings and logging options, and the
 * interfaces by which a module contributes its own subcommands and benchmarks (the {@code bench}
 * parent lives in {@code standalone}, which can start embedded servers for them).
 */
package org.scrapycluster.common.cli;
