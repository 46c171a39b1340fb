package org.scrapycluster.bench.crawl;

import org.scrapycluster.common.service.ShutdownSignal;
import org.scrapycluster.crawler.node.CrawlerCommand;

import picocli.CommandLine;

/**
 * The entry point of the crawler node JVM that {@link CrawlerProcess} starts: {@code scrapy-cluster
 * crawler} with the arguments given, without the rest of the command line; it stops when the benchmark's
 * JVM ends ({@link ParentLifeline}).
 */
public final class CrawlerMain {

    private CrawlerMain() {
    }

    public static void main(String[] args) {
        ParentLifeline.watch(System.in, () -> System.exit(0));
        int status = new CommandLine(new CrawlerCommand()).execute(args);
        // After Ctrl-C the JVM is already exiting; System.exit would wait for the shutdown hooks forever.
        if (!ShutdownSignal.jvmIsShuttingDown()) {
            System.exit(status);
        }
    }
}
