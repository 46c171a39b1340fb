package org.scrapycluster.bench;

import java.io.PrintWriter;
import java.util.Locale;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * What every {@code bench} subcommand shares, mixed in with picocli's {@code @Mixin} (it adds no option):
 * the cluster of the parent command, and the report printed on the command's output. A report opens with
 * a title line that ends with the machine's cores and load average and closes with the load average after
 * the run ({@link BenchmarkHost}), so that its figures are never read without them (docs/benchmarks.md).
 * The bare {@code @Command} is what picocli asks of a mixin without options; it sets nothing of the command.
 */
@Command
public final class BenchmarkRun {

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /**
     * The servers the benchmark {@code needs}, from the parent command {@code bench} (see
     * {@link BenchmarkEnvironment#open}); picocli does not inject {@code @ParentCommand} into a mixin, so
     * it is taken from the command's spec.
     */
    public BenchmarkCluster open(BenchmarkCluster.Server... needs) {
        return environment().open(needs);
    }

    /** Logging at the level of {@code bench --log-level}, for a benchmark that measures servers it does not {@link #open}. */
    public void configureLogging() {
        environment().configureLogging();
    }

    private BenchmarkEnvironment environment() {
        if (command.parent() == null || !(command.parent().userObject() instanceof BenchmarkEnvironment environment)) {
            throw new IllegalStateException(command.name() + " runs as a subcommand of scrapy-cluster bench");
        }
        return environment;
    }

    /** Where the report goes: the command's standard output. */
    public PrintWriter out() {
        return command.commandLine().getOut();
    }

    /** Prints the report's title, {@code format} with {@code args} and then {@code "; "} and {@link BenchmarkHost#before()}. */
    public void begin(String format, Object... args) {
        PrintWriter out = out();
        out.println(String.format(Locale.ROOT, format, args) + "; " + BenchmarkHost.before());
        out.flush();
    }

    /** Prints the report's last line, {@link BenchmarkHost#after()}. */
    public void end() {
        PrintWriter out = out();
        out.println(BenchmarkHost.after());
        out.flush();
    }

    /** A usage error of the command (exit status 2, with its message and the command's usage). */
    public ParameterException invalid(String message) {
        return new ParameterException(command.commandLine(), message);
    }
}
