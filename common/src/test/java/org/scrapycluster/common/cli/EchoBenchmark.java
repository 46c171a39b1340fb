package org.scrapycluster.common.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** A benchmark contributed the way modules contribute theirs: prints how many rounds it was asked for. */
@Command(name = "echo", description = "Print the number of rounds (test benchmark).")
public final class EchoBenchmark implements BenchmarkCommand, Callable<Integer> {

    @Option(names = "--rounds")
    int rounds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println(rounds + " rounds");
        return 0;
    }
}
