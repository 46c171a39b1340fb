package org.scrapycluster.kafkamonitor.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;

/** A command of the command line run in this JVM, with what it printed. */
public final class ToolRunner {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final CommandLine commandLine;

    public ToolRunner(Object command) {
        commandLine = new CommandLine(command);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
    }

    /** Runs the command with {@code args} and the logging of a test (warnings only). */
    public int execute(List<String> args) {
        List<String> all = new ArrayList<>(args);
        all.add("--log-level");
        all.add("WARNING");
        return commandLine.execute(all.toArray(String[]::new));
    }

    public String out() {
        return out.toString();
    }

    public String err() {
        return err.toString();
    }
}
