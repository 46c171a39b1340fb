package org.scrapycluster.crawler.node;

import java.time.Duration;
import java.util.Map;

import org.scrapycluster.common.cli.ServiceCommand;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code scrapy-cluster crawler [--spider link|wandering|<name>]}: runs one crawler node against the Redis,
 * Kafka and ZooKeeper its settings name, until Ctrl-C or SIGTERM. Any number of nodes, on any number of
 * machines, share the queues.
 */
@Command(name = "crawler", mixinStandardHelpOptions = true,
        description = {"Run a crawler node: take requests from the Redis queues of one spider under the cluster-wide throttle,"
                + " fetch them and publish the pages on Kafka.", "Settings: config/crawler.yml; see docs/settings.md."})
public final class CrawlerCommand extends ServiceCommand {

    /** How long a stopping node has to finish its fetches and hand its leases back; orchestrators wait longer. */
    public static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(30);

    @Option(names = "--spider", paramLabel = "NAME", description = "The spider to run: link, wandering or your own (default: SPIDER_NAME).")
    String spider;

    public CrawlerCommand() {
        super(new CrawlerFactory(), SHUTDOWN_GRACE);
    }

    @Override
    protected Map<String, String> commandOptions() {
        return spider == null ? Map.of() : Map.of("SPIDER_NAME", spider);
    }
}
