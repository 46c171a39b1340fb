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
 * {@code scrapy-cluster bench}: the parent of every {@link ClusterBenchmark} on the class path, so
 * that each module can bring its own ({@code bench redis-monitor}, ...) without knowing the others.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, modelTransformer = BenchCommand.Benchmarks.class,
        description = "Measure a part of the cluster; the figures are printed, nothing is asserted.")
public final class BenchCommand implements ClusterCommand, Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing benchmark; one of " + spec.subcommands().keySet());
    }

    /** Adds the contributed benchmarks as subcommands, in name order. */
    public static final class Benchmarks implements IModelTransformer {

        @Override
        public CommandSpec transform(CommandSpec spec) {
            ServiceLoader.load(ClusterBenchmark.class).stream()
                    .map(ServiceLoader.Provider::get)
                    .map(CommandLine::new)
                    .sorted(Comparator.comparing(CommandLine::getCommandName))
                    .forEach(benchmark -> spec.addSubcommand(benchmark.getCommandName(), benchmark));
            return spec;
        }
    }
}
