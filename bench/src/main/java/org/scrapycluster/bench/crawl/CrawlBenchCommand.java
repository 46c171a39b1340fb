package org.scrapycluster.bench.crawl;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import org.scrapycluster.bench.BenchmarkCluster;
import org.scrapycluster.bench.BenchmarkHost;
import org.scrapycluster.bench.BenchmarkCommand;
import org.scrapycluster.bench.BenchmarkRun;
import org.scrapycluster.bench.ThreadCpu;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.origin.SyntheticSite;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code scrapy-cluster bench crawl}: pages per second of one crawler node from the first seed to the last
 * result on Kafka, with the node's CPU time and peak resident memory ({@link CrawlBenchmark}). The node
 * runs in a JVM of its own with the heap given; the test origin, Kafka and ZooKeeper run in this JVM and
 * Redis as its child, all on the same cores. The throttle is opened up (hits per window far above what
 * one node can fetch, not moderated); politeness otherwise keeps its defaults (robots.txt obeyed).
 */
@Command(name = "crawl", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measure pages/s of one crawler node crawling a synthetic site on loopback addresses.",
                "The node runs in a JVM of its own; measured from the first seed to the last result on Kafka, with the node's CPU "
                        + "time and peak RSS."})
public final class CrawlBenchCommand implements BenchmarkCommand, Callable<Integer> {

    @Option(names = "--domains", paramLabel = "N", description = "Domains of the site, each a loopback address (default: ${DEFAULT-VALUE}).")
    int domains = 50;

    @Option(names = "--pages", paramLabel = "N", description = "Pages per domain (default: ${DEFAULT-VALUE}).")
    int pages = 200;

    @Option(names = "--page-bytes", paramLabel = "N", description = "Size of a page in bytes (default: ${DEFAULT-VALUE}).")
    int pageBytes = 15_000;

    @Option(names = "--links", paramLabel = "N", description = "Links on a page (default: ${DEFAULT-VALUE}).")
    int links = 20;

    @Option(names = "--cross-domain", paramLabel = "SHARE", description = "Share of links to other domains (default: ${DEFAULT-VALUE}).")
    double crossDomain = 0.2;

    @Option(names = "--rounds", paramLabel = "N",
            description = "Rounds, one after another in the same node, each a crawl of the whole site (or --crawls of them at once);"
                    + " the first includes JIT warm-up (default: ${DEFAULT-VALUE}).")
    int rounds = 3;

    @Option(names = "--crawls", paramLabel = "N",
            description = "Crawls of the whole site at once in each round, each with its own crawlid and so its own dupefilter,"
                    + " as overlapping crawls of one site run (default: ${DEFAULT-VALUE}).")
    int crawls = 1;

    @Option(names = "--concurrency", paramLabel = "N", description = "CONCURRENT_REQUESTS of the node (default: ${DEFAULT-VALUE}).")
    int concurrency = 500;

    @Option(names = "--per-domain", paramLabel = "N",
            description = "CONCURRENT_REQUESTS_PER_DOMAIN of the node (default: concurrency / domains, rounded up).")
    Integer perDomain;

    @Option(names = "--heap", paramLabel = "SIZE", description = "The node's -Xmx (default: ${DEFAULT-VALUE}).")
    String heap = "256m";

    @Option(names = "--jvm-option", paramLabel = "OPTION", description = "Another JVM option of the node, e.g. -XX:+UseSerialGC. Repeatable.")
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--set", paramLabel = "NAME=VALUE", description = "Another setting of the node. Repeatable.")
    Map<String, String> sets = new LinkedHashMap<>();

    @Option(names = "--crawler-log-level", paramLabel = "LEVEL", description = "The node's SC_LOG_LEVEL (default: ${DEFAULT-VALUE}).")
    String crawlerLogLevel = "WARNING";

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Longest a round may take (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds = 600;

    @Mixin
    BenchmarkRun run;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = run.out();
        CrawlBenchmark.Plan plan = plan();
        int cores = Runtime.getRuntime().availableProcessors();
        try (BenchmarkCluster cluster = run.open(BenchmarkCluster.Server.KAFKA, BenchmarkCluster.Server.REDIS,
                BenchmarkCluster.Server.ZOOKEEPER)) {
            if (!cluster.isEmbedded(BenchmarkCluster.Server.REDIS)) {
                throw run.invalid("bench crawl fills a Redis of its own with queues of the link spider; run it without --redis");
            }
            RedisEndpoint redisEndpoint = cluster.redis();
            CrawlBenchmark benchmark = new CrawlBenchmark(plan);
            out.printf(Locale.ROOT, "Crawl benchmark: %d domains x %d pages of %,d bytes with %d links (%.0f%% to other domains);"
                            + " a round is %s: %,d pages; %s%n",
                    domains, pages, pageBytes, links, crossDomain * 100, crawls == 1
                            ? "one crawl from page 0 of every domain, to every page it reaches"
                            : crawls + " crawls at once from page 0 of every domain, each to every page it reaches",
                    plan.pagesPerCrawl() * crawls, BenchmarkHost.before());
            out.printf(Locale.ROOT, "crawler node JVM: %s%n", String.join(" ", plan.jvmOptions()));
            out.printf(Locale.ROOT, "crawler node settings: %s%n", plan.settings().entrySet().stream()
                    .map(setting -> setting.getKey() + "=" + setting.getValue()).collect(Collectors.joining(" ")));
            out.flush();
            CrawlBenchmark.Report report;
            try (RedisConnection redis = RedisConnection.open(redisEndpoint)) {
                report = benchmark.run(cluster.kafkaBootstrap(), cluster.zookeeperConnect(), redis, redisEndpoint.host(),
                        redisEndpoint.port(), round -> {
                            out.printf(Locale.ROOT, "round %d: %,d pages in %.2f s = %,.0f pages/s; crawler CPU %.1f s (%.0f%% of %d cores,"
                                            + " %.2f ms a page), peak RSS %d MiB; redis-server %.2f ms a page; crawler + redis-server"
                                            + " %.2f ms a page; origin + Kafka + ZooKeeper CPU %.1f s; machine busy %.0f%%%n",
                                    round.number(), round.pages(), CrawlBenchmark.seconds(round.elapsed()), round.pagesPerSecond(),
                                    CrawlBenchmark.seconds(round.crawlerCpu()), round.crawlerCpuShare(cores) * 100, cores,
                                    round.perPage(round.crawlerCpu()), round.peakRss() >> 20, round.perPage(round.redisCpu()),
                                    round.perPage(round.crawlerCpu().plus(round.redisCpu())),
                                    CrawlBenchmark.seconds(round.originCpu()), round.machineBusy() * 100);
                            out.flush();
                        });
            }
            out.printf(Locale.ROOT, "crawler peak RSS over its whole life (VmHWM): %d MiB%n", report.peakRssSinceStart() >> 20);
            CrawlBenchmark.Round measured = report.afterWarmUp();
            out.printf(Locale.ROOT, "rounds %d to %d, after warm-up: %,.0f pages/s; crawler %.3f ms a page, redis-server %.3f ms,"
                            + " crawler + redis-server %.3f ms%n", report.firstRoundOfThreadCpu(), report.rounds().size(),
                    measured.pagesPerSecond(), measured.perPage(measured.crawlerCpu()), measured.perPage(measured.redisCpu()),
                    measured.perPage(measured.crawlerCpu().plus(measured.redisCpu())));
            ThreadCpu.print(out, String.format(Locale.ROOT, "crawler CPU by thread, rounds %d to %d", report.firstRoundOfThreadCpu(),
                    report.rounds().size()), report.threadCpu(), measured.pages());
            out.println(BenchmarkHost.after());
        }
        out.flush();
        return 0;
    }

    private CrawlBenchmark.Plan plan() {
        SyntheticSite site;
        try {
            site = SyntheticSite.builder().seed(2024).domains(domains).pagesPerDomain(pages).pageBytes(pageBytes).linksPerPage(links)
                    .crossDomainShare(crossDomain).build();
        } catch (IllegalArgumentException e) {
            throw run.invalid(e.getMessage());
        }
        int perDomainLimit = perDomain != null ? perDomain : Math.ceilDiv(concurrency, domains);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("QUEUE_HITS", "1000000");
        settings.put("QUEUE_WINDOW", "1");
        settings.put("QUEUE_MODERATED", "false");
        settings.put("CONCURRENT_REQUESTS", Integer.toString(concurrency));
        settings.put("CONCURRENT_REQUESTS_PER_DOMAIN", Integer.toString(perDomainLimit));
        settings.put("SC_LOG_LEVEL", crawlerLogLevel);
        settings.putAll(sets);
        List<String> jvm = new ArrayList<>(List.of("-Xmx" + heap, "--enable-native-access=ALL-UNNAMED"));
        if (Runtime.version().feature() >= 24) {
            jvm.add("--sun-misc-unsafe-memory-access=allow");
        }
        jvm.addAll(jvmOptions);
        try {
            return new CrawlBenchmark.Plan(site, rounds, crawls, jvm, settings, Duration.ofSeconds(timeoutSeconds));
        } catch (IllegalArgumentException e) {
            throw run.invalid(e.getMessage());
        }
    }
}
