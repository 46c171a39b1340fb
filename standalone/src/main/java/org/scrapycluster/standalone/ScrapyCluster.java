package org.scrapycluster.standalone;

import org.scrapycluster.bench.BenchCommand;
import org.scrapycluster.common.cli.ScrapyClusterCommand;

import picocli.CommandLine;

/**
 * The entry point of the full jar: the root command {@code scrapy-cluster} with {@code standalone},
 * {@code train} and {@code bench}, which start embedded servers, and {@code plugins}, beside the contributed subcommands.
 */
public final class ScrapyCluster {

    private ScrapyCluster() {
    }

    /** The command line with {@code standalone}, {@code plugins}, {@code train}, {@code bench} and every contributed subcommand. */
    public static CommandLine commandLine() {
        return ScrapyClusterCommand.commandLine(new CommandLine(new StandaloneCommand()), new CommandLine(new PluginsCommand()),
                new CommandLine(new TrainCommand()),
                BenchCommand.commandLine());
    }

    public static void main(String[] args) {
        ScrapyClusterCommand.exitWith(commandLine(), args);
    }
}
