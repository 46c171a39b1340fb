/**
 * What every {@code scrapy-cluster} subcommand shares: the settings and logging options, and
 * the interface by which a module contributes its own subcommands to the root command.
 */
package org.scrapycluster.common.cli;
