package org.scrapycluster.bench.profile;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

import org.scrapycluster.bench.BenchmarkCommand;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code scrapy-cluster bench profile FILE.jfr}: a recording's CPU by thread and by method, as Markdown tables. */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = {"Summarise a Java Flight Recorder file as Markdown tables; needs no server.",
                "CPU by thread, and the sampled methods by share of stacks (inclusive and self). Record a crawler node with "
                        + "bench crawl --jvm-option=-XX:StartFlightRecording=filename=node.jfr,settings=profile."})
public final class ProfileCommand implements BenchmarkCommand, Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The recording (.jfr).")
    Path recording;

    @Option(names = "--skip", defaultValue = "0.5", paramLabel = "SHARE",
            description = "Share of the recording, from its start, left out as warm-up (default: ${DEFAULT-VALUE}).")
    double skip;

    @Option(names = "--threads", defaultValue = ".", paramLabel = "REGEX",
            description = "Whose stacks count, by thread name (default: every thread).")
    Pattern threads;

    @Option(names = "--methods", defaultValue = "org\\.scrapycluster", paramLabel = "REGEX",
            description = "Which methods the inclusive table lists, by class and name (default: ${DEFAULT-VALUE}).")
    Pattern methods;

    @Option(names = "--top", defaultValue = "20", paramLabel = "N", description = "Rows per table (default: ${DEFAULT-VALUE}).")
    int top;

    @Override
    public Integer call() throws Exception {
        ProfileSummary summary = ProfileSummary.read(recording, skip, threads);
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "%s, from %.0f%% of its length on; %,d sampled stacks of threads matching %s%n%n",
                recording.getFileName(), 100 * skip, summary.samples(), threads);
        table(out, "Java thread (numbered alike as one)", "Share of the Java threads' CPU", summary.threads(top));
        table(out, "Method (with what it calls)", "Share of stacks", summary.inclusive(top, methods));
        table(out, "Method (on top of the stack)", "Share of stacks", summary.self(top));
        out.flush();
        return 0;
    }

    private static void table(PrintWriter out, String what, String share, List<ProfileSummary.Share> rows) {
        out.printf("| %s | %s |%n|---|---|%n", what, share);
        for (ProfileSummary.Share row : rows) {
            out.printf(Locale.ROOT, "| `%s` | %.1f%% |%n", row.name(), row.percent());
        }
        out.println();
    }
}
