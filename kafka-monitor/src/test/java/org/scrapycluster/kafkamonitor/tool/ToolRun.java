package org.scrapycluster.kafkamonitor.tool;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;

/** One run of a tool command in this JVM, with what it printed. */
final class ToolRun {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final CommandLine commandLine;

    ToolRun(Object command) {
        commandLine = new CommandLine(command);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
    }

    /** Runs the command with {@code args} and the logging of a test (warnings only). */
    int execute(List<String> args) {
        List<String> all = new ArrayList<>(args);
        all.add("--log-level");
        all.add("WARNING");
        return commandLine.execute(all.toArray(String[]::new));
    }

    String out() {
        return out.toString();
    }

    String err() {
        return err.toString();
    }
}
