package org.scrapycluster.common.cli;

import java.util.Comparator;
import java.util.ServiceLoader;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code scrapy-cluster bench}: the parent of the benchmarks the modules on the class path
 * contribute as {@link BenchmarkCommand}s, each measured by its own subcommand.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, modelTransformer = BenchCommand.Benchmarks.class,
        description = "Measure the throughput of a part of the cluster; each benchmark is a subcommand.")
public final class BenchCommand implements ClusterCommand, Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing benchmark: one of " + spec.subcommands().keySet());
    }

    /** Adds every {@link BenchmarkCommand} found by {@link ServiceLoader}, in name order. */
    public static final class Benchmarks implements IModelTransformer {

        @Override
        public CommandSpec transform(CommandSpec spec) {
            ServiceLoader.load(BenchmarkCommand.class).stream()
                    .map(ServiceLoader.Provider::get)
                    .map(CommandLine::new)
                    .sorted(Comparator.comparing(CommandLine::getCommandName))
                    .forEach(benchmark -> spec.addSubcommand(benchmark.getCommandName(), benchmark));
            return spec;
        }
    }
}
