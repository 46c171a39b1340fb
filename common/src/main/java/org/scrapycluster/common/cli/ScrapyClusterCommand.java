package org.scrapycluster.common.cli;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

import org.scrapycluster.common.service.Causes;
import org.scrapycluster.common.service.ShutdownSignal;
import org.scrapycluster.common.settings.SettingsException;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The root command {@code scrapy-cluster}. Its subcommands are the {@link ClusterCommand}s that the
 * modules on the class path contribute, plus whatever the jar's own entry point adds. This class is
 * the entry point of the services jar (the four services and the client tools, nothing embedded);
 * the {@code standalone} module adds {@code standalone} and {@code bench} to the same root.
 */
@Command(name = "scrapy-cluster", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = "A distributed, on-demand web crawling cluster: Kafka monitor, Redis monitor, crawlers and a REST gateway.",
        subcommands = HelpCommand.class)
public final class ScrapyClusterCommand implements Runnable {

    /** The original's option naming a (Python) settings file. */
    private static final List<String> PYTHON_SETTINGS_FILE = List.of("-s", "--settings");

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand");
    }

    /**
     * The command line with {@code builtIn} first and then every contributed subcommand, in name
     * order; a setting error ends with status 2 and a one-line message, any other failure with 1.
     */
    public static CommandLine commandLine(CommandLine... builtIn) {
        CommandLine commandLine = new CommandLine(new ScrapyClusterCommand());
        for (CommandLine command : builtIn) {
            commandLine.addSubcommand(command);
        }
        List<ClusterCommand> contributed = ServiceLoader.load(ClusterCommand.class).stream()
                .map(ServiceLoader.Provider::get)
                .sorted(Comparator.comparing(ScrapyClusterCommand::nameOf))
                .toList();
        // Each through a CommandLine of its own, so that a contributed command's model transformer runs.
        contributed.forEach(command -> commandLine.addSubcommand(new CommandLine(command)));
        answerVersionLikeTheRoot(commandLine, commandLine.getCommandSpec().versionProvider());
        // After the subcommands are added: picocli hands the writer and the converter to those it has at the time.
        commandLine.setOut(standardOutput());
        commandLine.registerConverter(Path.class, ScrapyClusterCommand::path);
        // picocli's own answer to a usage error, but for the original's settings file option
        CommandLine.IParameterExceptionHandler picocli = commandLine.getParameterExceptionHandler();
        commandLine.setParameterExceptionHandler((e, args) -> namesPythonSettingsFile(e) ? settingsFileHint(e)
                : picocli.handleParseException(e, args));
        commandLine.setExecutionExceptionHandler((e, cli, parsed) -> {
            cli.getErr().println(cli.getCommandSpec().qualifiedName() + ": " + message(e));
            if (!(e instanceof SettingsException) && !causedByInputOrOutput(e)) {
                e.printStackTrace(cli.getErr()); // a bug's, for its report
            }
            return e instanceof SettingsException ? 2 : 1;
        });
        return commandLine;
    }

    /** Gives {@code command} and every command under it {@code version}, which {@code --version} prints. */
    private static void answerVersionLikeTheRoot(CommandLine command, CommandLine.IVersionProvider version) {
        command.getCommandSpec().versionProvider(version);
        command.getSubcommands().values().forEach(subcommand -> answerVersionLikeTheRoot(subcommand, version));
    }

    /**
     * Whether {@code e} comes of a file, a connection or a pipe that failed (a file not found, a server that does not
     * listen): its message says it all, where a stack trace would only bury it.
     */
    private static boolean causedByInputOrOutput(Throwable e) {
        return Causes.first(e, IOException.class).isPresent();
    }

    /** Runs {@code args} on {@code commandLine} and ends the JVM with the command's status. */
    public static void exitWith(CommandLine commandLine, String[] args) {
        int status = commandLine.execute(args);
        // After Ctrl-C the JVM is already exiting; System.exit would wait for the shutdown hooks forever.
        if (!ShutdownSignal.jvmIsShuttingDown()) {
            System.exit(status);
        }
    }

    /** The services jar's entry point: the services and the client tools. */
    public static void main(String[] args) {
        exitWith(commandLine(), args);
    }

    /** Whether {@code e} is about the original's settings file option, {@code -s}/{@code --settings}. */
    private static boolean namesPythonSettingsFile(ParameterException e) {
        return e instanceof CommandLine.UnmatchedArgumentException unmatched
                && unmatched.getUnmatched().stream().anyMatch(PYTHON_SETTINGS_FILE::contains);
    }

    /**
     * Says what picocli says of an unknown option, but instead of its suggestion ({@code --set}) that a file of settings is
     * YAML here, given with {@code --config}.
     *
     * @return the status of a usage error, 2
     */
    private static int settingsFileHint(ParameterException e) {
        CommandLine cli = e.getCommandLine();
        PrintWriter err = cli.getErr();
        err.println(e.getMessage());
        err.println("The original's settings file (-s, --settings localsettings.py) is a YAML file here, given with --config FILE"
                + " (docs/compatibility.md, §9).");
        return cli.getCommandSpec().exitCodeOnInvalidInput();
    }

    /**
     * Standard output as a writer whose {@link PrintWriter#checkError()} tells when a write failed, as when
     * the reader of a pipe has gone: {@code System.out}, a {@code PrintStream}, keeps such an error to itself.
     */
    private static PrintWriter standardOutput() {
        return new PrintWriter(new BufferedWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), System.out.charset())), true);
    }

    /**
     * A file named on the command line ({@code --config}, {@code feed --file}, {@code zookeeper push FILE}); an empty one is
     * a usage error, where Java would take it for the working directory ({@code Cannot read : Is a directory}).
     */
    private static Path path(String value) {
        if (value.isEmpty()) {
            throw new CommandLine.TypeConversionException("an empty path names no file");
        }
        return Path.of(value);
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
