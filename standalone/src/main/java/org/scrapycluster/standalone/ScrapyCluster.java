package org.scrapycluster.standalone;

import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

import org.scrapycluster.common.cli.ClusterCommand;
import org.scrapycluster.common.service.ShutdownSignal;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.standalone.bench.BenchCommand;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The root command {@code scrapy-cluster}. Its subcommands are {@code standalone} and whatever
 * the modules on the class path contribute as {@link ClusterCommand}s.
 */
@Command(name = "scrapy-cluster", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = "A distributed, on-demand web crawling cluster: Kafka monitor, Redis monitor, crawlers and a REST gateway.",
        subcommands = {StandaloneCommand.class, PluginsCommand.class, CommandLine.HelpCommand.class})
public final class ScrapyCluster implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand");
    }

    /** The command line with every contributed subcommand, in name order. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new ScrapyCluster());
        List<ClusterCommand> contributed = ServiceLoader.load(ClusterCommand.class).stream()
                .map(ServiceLoader.Provider::get)
                .sorted(Comparator.comparing(ScrapyCluster::nameOf))
                .toList();
        // Each through a CommandLine of its own, so that a contributed command's model transformer runs.
        contributed.forEach(command -> commandLine.addSubcommand(new CommandLine(command)));
        commandLine.addSubcommand(BenchCommand.commandLine());
        commandLine.setExecutionExceptionHandler((e, cli, parsed) -> {
            cli.getErr().println(cli.getCommandSpec().qualifiedName() + ": " + message(e));
            if (!(e instanceof SettingsException)) {
                e.printStackTrace(cli.getErr());
            }
            return e instanceof SettingsException ? 2 : 1;
        });
        return commandLine;
    }

    public static void main(String[] args) {
        int status = commandLine().execute(args);
        // After Ctrl-C the JVM is already exiting; System.exit would wait for the shutdown hooks forever.
        if (!ShutdownSignal.jvmIsShuttingDown()) {
            System.exit(status);
        }
    }

    private static String nameOf(ClusterCommand command) {
        Command annotation = command.getClass().getAnnotation(Command.class);
        if (annotation == null) {
            throw new IllegalStateException(command.getClass().getName() + " is a ClusterCommand without @Command");
        }
        return annotation.name();
    }

    private static String message(Exception e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
