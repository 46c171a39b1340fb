package org.scrapycluster.bench.outside;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import org.scrapycluster.bench.BenchmarkCommand;
import org.scrapycluster.bench.BenchmarkRun;
import org.scrapycluster.bench.ThreadCpu;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code scrapy-cluster bench outside}: crawls into a cluster that runs already, such as a {@code standalone}, measured from
 * outside it ({@link OutsideBenchmark}): pages a second and CPU a page of each process named with {@code --pid}, with each
 * crawl's quiet end and up to its last results, crawl by crawl and as the mean over the second half of the crawls, the
 * first ones being the JIT's warm-up, and the first process's CPU a page by group of threads over that half
 * (docs/benchmarks.md, "How it is measured"). It starts no server: the Kafka is the cluster's, given here rather than to
 * {@code bench --kafka}.
 */
@Command(name = "outside", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measure a running cluster from outside, with crawls of a synthetic site.",
                "The site is served from this JVM on 127.0.0.11 to 127.0.0.30, the crawls' requests sent to the cluster's incoming "
                        + "topic; a crawl is over when its crawled firehose stands still. Prints pages/s by the results' timestamps, "
                        + "and CPU a page of each process named with --pid, with the crawl's quiet end and up to its last results."})
public final class OutsideBenchCommand implements BenchmarkCommand, Callable<Integer> {

    @Option(names = "--pid", paramLabel = "NAME=PID", required = true,
            description = "A process whose CPU a page to report, e.g. standalone=4711 or redis=4712. Repeatable.")
    Map<String, Long> pids = new LinkedHashMap<>();

    @Option(names = "--crawls", paramLabel = "N",
            description = "Crawls, one after another into the same cluster, each with crawl ids of its own (default: ${DEFAULT-VALUE}).")
    int crawls = 1;

    @Option(names = "--kafka", paramLabel = "HOST:PORT", description = "The cluster's Kafka bootstrap servers (default: ${DEFAULT-VALUE}).")
    String kafka = "127.0.0.1:9092";

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", description = "The cluster's KAFKA_TOPIC_PREFIX (default: ${DEFAULT-VALUE}).")
    String topicPrefix = "demo";

    @Option(names = "--port", paramLabel = "PORT",
            description = "The port of the site on every domain's address; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port = 8080;

    @Option(names = "--quiet-seconds", paramLabel = "SECONDS",
            description = "A crawl is over once the crawled firehose's end offsets have not moved for this long (default: ${DEFAULT-VALUE}).")
    int quietSeconds = 15;

    @Mixin
    BenchmarkRun run;

    @Override
    public Integer call() throws InterruptedException {
        OutsideBenchmark.Plan plan = plan();
        NamedProcesses processes = processes();
        run.configureLogging();
        OutsideBenchmark benchmark = new OutsideBenchmark(plan, processes);
        try (TestOrigin origin = benchmark.serve()) {
            SyntheticSite site = OutsideBenchmark.SITE;
            run.begin("Crawl benchmark from outside: %d crawl(s) into the cluster of Kafka %s, each %d crawl ids' requests to %s"
                            + " for page 0 of %d domains (%s to %s, port %d; %d pages of %,d bytes with %d links, %.0f%% to other domains),"
                            + " maxdepth %d, over once %s has stood still for %d s; CPU of %s",
                    plan.crawls(), plan.kafka(), OutsideBenchmark.CRAWL_IDS, plan.topics().incoming(), site.domains(), origin.host(0),
                    origin.host(origin.domains() - 1), origin.port(), site.pagesPerDomain(), site.pageBytes(), site.linksPerPage(),
                    OutsideBenchmark.CROSS_DOMAIN_SHARE * 100, CrawlRequests.MAX_DEPTH, plan.topics().crawledFirehose(),
                    plan.quiet().toSeconds(), processes.describe());
            PrintWriter out = run.out();
            List<CrawlFigures> figures = benchmark.run(origin, crawl -> {
                out.printf(Locale.ROOT, "crawl %d: %,d pages, %s%n", crawl.number(), crawl.pages(), describe(crawl.perPage()));
                out.flush();
            });
            List<CrawlFigures> secondHalf = figures.subList(figures.size() / 2, figures.size());
            PerPage mean = PerPage.mean(secondHalf.stream().map(CrawlFigures::perPage).toList());
            out.printf(Locale.ROOT, "crawls %d to %d (the second half), the mean of each crawl's figures: %s%n",
                    secondHalf.getFirst().number(), figures.size(), describe(mean));
            ThreadCpu.print(out, String.format(Locale.ROOT, "%s CPU by thread, crawls %d to %d", processes.first(),
                            secondHalf.getFirst().number(), figures.size()),
                    secondHalf.stream().map(CrawlFigures::threadCpu).reduce(Map.of(), ThreadCpu::plus),
                    secondHalf.stream().mapToLong(CrawlFigures::pages).sum());
            run.end();
        }
        return 0;
    }

    /**
     * {@code "5,432 pages/s; CPU a page: standalone 0.245 ms, redis 0.068 ms, together 0.313 ms; to the last results:
     * standalone 0.215 ms, redis 0.066 ms, together 0.281 ms"}.
     */
    private static String describe(PerPage figures) {
        return String.format(Locale.ROOT, "%,.0f pages/s; CPU a page: %s, together %.3f ms; to the last results: %s, together %.3f ms",
                figures.pagesPerSecond(), byProcess(figures.msPerPage()), figures.totalMsPerPage(),
                byProcess(figures.toResultsPerPage()), figures.totalToResultsPerPage());
    }

    private static String byProcess(Map<String, Double> msPerPage) {
        return msPerPage.entrySet().stream()
                .map(process -> String.format(Locale.ROOT, "%s %.3f ms", process.getKey(), process.getValue()))
                .collect(Collectors.joining(", "));
    }

    private OutsideBenchmark.Plan plan() {
        try {
            return new OutsideBenchmark.Plan(kafka, Topics.withPrefix(topicPrefix), port, crawls, Duration.ofSeconds(quietSeconds));
        } catch (IllegalArgumentException e) {
            throw run.invalid(e.getMessage());
        }
    }

    private NamedProcesses processes() {
        try {
            return NamedProcesses.of(pids);
        } catch (IllegalArgumentException e) {
            throw run.invalid(e.getMessage());
        }
    }
}
