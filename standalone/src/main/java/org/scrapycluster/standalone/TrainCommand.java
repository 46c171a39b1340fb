package org.scrapycluster.standalone;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.scrapycluster.common.service.ShutdownSignal;
import org.scrapycluster.common.settings.SettingsGroup;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code scrapy-cluster train}: a training run for the JVM's ahead-of-time cache (docs/operations.md "Warm start").
 * The launcher runs it once per build, on JDK 25 or newer, with {@code -XX:AOTCacheOutput}, and starts later runs
 * with the cache it leaves.
 */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = {"Crawl a synthetic site with the whole cluster in this JVM, on free ports and loopback addresses,"
                + " then stop: the training run for a JVM ahead-of-time cache (java -XX:AOTCacheOutput=FILE ... train),"
                + " which ./scrapy-cluster makes once per build on JDK 25 or newer.",
                "Takes no settings from files or the environment; see docs/operations.md, \"Warm start\"."})
public final class TrainCommand implements Callable<Integer> {

    @Option(names = "--crawls", paramLabel = "N", defaultValue = "48",
            description = "Crawls of the 2,500-page site, four at a time (default: ${DEFAULT-VALUE}).")
    int crawls;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "300",
            description = "Longest the crawls may take in all (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (crawls < 1 || timeoutSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "--crawls and --timeout must be at least 1");
        }
        SettingsGroup settings = TrainingCrawl.trainingSettings();
        StandaloneCommand.configureLogging(settings);
        // A signal (the launcher passing on Ctrl-C or SIGTERM) ends the crawls, and the JVM waits while the cluster
        // stops and removes its temporary data, gigabytes of the broker's log by the end of a training run.
        try (ShutdownSignal signal = ShutdownSignal.install(StandaloneCluster.SHUTDOWN_GRACE);
             TrainingCrawl training = new TrainingCrawl(settings)) {
            Optional<TrainingCrawl.Summary> summary = training.run(StandaloneCommand.serviceFactories(), crawls,
                    Duration.ofSeconds(timeoutSeconds), ShutdownSignal::jvmIsShuttingDown);
            if (summary.isEmpty()) {
                // Said once the cluster is closed and its data removed: the launcher (scrapy-cluster) waits for this
                // line, then ends the JVM before its exit assembles a cache from a run cut short.
                spec.commandLine().getErr().println("Training stopped");
                return 1;
            }
            spec.commandLine().getOut().printf(Locale.ROOT, "Trained: %d pages crawled in %.1f s%n", summary.get().pages(),
                    summary.get().took().toNanos() / 1e9);
            return 0;
        }
    }
}
