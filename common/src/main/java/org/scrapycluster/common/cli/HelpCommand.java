package org.scrapycluster.common.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;

/**
 * {@code scrapy-cluster help [COMMAND...]}: the usage of the root, of a command, or of a subcommand named after its
 * command ({@code help dump list}), where picocli's own help command reads one name only.
 */
@Command(name = "help", helpCommand = true,
        description = "Show the usage of a command, or of a subcommand named after its command (help dump list).")
final class HelpCommand implements CommandLine.IHelpCommandInitializable2, Runnable {

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command whose usage to show, then its subcommand, if any.")
    private List<String> names = new ArrayList<>();

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show the usage of help itself.")
    private boolean helpRequested;

    private CommandLine self;
    private CommandLine.Help.ColorScheme colorScheme;
    private PrintWriter out;

    @Override
    public void init(CommandLine helpCommandLine, CommandLine.Help.ColorScheme colors, PrintWriter outWriter, PrintWriter errWriter) {
        this.self = helpCommandLine;
        this.colorScheme = colors;
        this.out = outWriter;
    }

    @Override
    public void run() {
        CommandLine shown = self.getParent();
        for (String name : names) {
            CommandLine subcommand = shown.getSubcommands().get(name);
            if (subcommand == null) {
                throw new ParameterException(self.getParent(), "Unknown subcommand '" + String.join(" ", names) + "'", null, name);
            }
            shown = subcommand;
        }
        shown.usage(out, colorScheme);
    }
}
