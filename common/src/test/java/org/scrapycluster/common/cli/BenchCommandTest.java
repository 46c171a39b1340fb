package org.scrapycluster.common.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

class BenchCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void theBenchmarksOnTheClassPathAreItsSubcommands() {
        assertEquals(0, run("echo", "--rounds", "3"));
        assertEquals("3 rounds", out.toString().strip());
    }

    @Test
    void withoutABenchmarkItSaysWhichThereAre() {
        assertEquals(2, run());
        assertTrue(err.toString().contains("Missing benchmark: one of [echo]"), err.toString());
    }

    private int run(String... args) {
        CommandLine cli = new CommandLine(new BenchCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }
}
