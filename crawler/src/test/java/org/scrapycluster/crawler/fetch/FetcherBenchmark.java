package org.scrapycluster.crawler.fetch;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * Fetch throughput against the test origin in the same JVM: 50 domains × 200 pages of ~15 KB with 20 links,
 * kept-alive connections, a fixed number of fetches in flight. Compares this fetcher with the JDK's
 * HttpClient under the same load. Runs only with {@code -Dscrapycluster.bench=true}; prints its figures and
 * appends them to {@code target/benchmarks/fetcher.txt}. Speed is measured here, never asserted.
 */
@EnabledIfSystemProperty(named = "scrapycluster.bench", matches = "true")
class FetcherBenchmark {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(2024).domains(50).pagesPerDomain(200)
            .pageBytes(15_000).linksPerPage(20).crossDomainShare(0.2).build();
    private static final List<Integer> CONCURRENCY = Arrays.stream(System.getProperty("scrapycluster.bench.concurrency",
            "64,128,256,500").split(",")).map(String::trim).map(Integer::valueOf).toList();
    private static final Duration WARM_UP = Duration.ofSeconds(Long.getLong("scrapycluster.bench.warmup", 4));
    private static final Duration MEASURE = Duration.ofSeconds(Long.getLong("scrapycluster.bench.seconds", 10));

    private static TestOrigin origin;

    @BeforeAll
    static void start() {
        origin = TestOrigin.builder().site(SITE).requestLogCapacity(0).start();
    }

    @AfterAll
    static void stop() {
        origin.close();
    }

    @Test
    void nettyFetcher() throws Exception {
        fetcherRuns(true);
    }

    @Test
    void nettyFetcherOnNio() throws Exception {
        fetcherRuns(false);
    }

    private static void fetcherRuns(boolean nativeTransport) throws Exception {
        for (int concurrency : CONCURRENCY) {
            FetcherConfig config = FetcherConfig.builder().maxConnections(concurrency).nativeTransport(nativeTransport)
                    .maxConnectionsPerHost((concurrency + SITE.domains() - 1) / SITE.domains()).build();
            try (HttpFetcher fetcher = new HttpFetcher(config)) {
                String transport = fetcher.usesNativeTransport() ? "epoll" : "nio";
                run("HttpFetcher/" + transport, concurrency, url -> fetcher.fetch(FetchRequest.get(url))
                        .thenApply(result -> result.ok() && result.status() == 200 ? result.body().length : -1));
            }
        }
    }

    @Test
    void jdkHttpClient() throws Exception {
        for (int concurrency : CONCURRENCY) {
            try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .executor(Executors.newFixedThreadPool(2)).connectTimeout(Duration.ofSeconds(10)).build()) {
                run("JDK HttpClient", concurrency, url -> client.sendAsync(HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray())
                        .handle((response, failure) -> failure == null && response.statusCode() == 200
                                ? response.body().length : -1));
            }
        }
    }

    /** Keeps {@code concurrency} fetches in flight through all pages in turn, and reports pages per second. */
    private static void run(String client, int concurrency, Function<String, CompletableFuture<Integer>> fetch)
            throws Exception {
        AtomicLong sequence = new AtomicLong();
        AtomicLong pages = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long start = System.nanoTime();
        long measureFrom = start + WARM_UP.toNanos();
        long end = measureFrom + MEASURE.toNanos();
        long[] atMeasureStart = new long[3];
        CountDownLatch done = new CountDownLatch(concurrency);
        Runnable[] loop = new Runnable[1];
        loop[0] = () -> {
            long now = System.nanoTime();
            if (now >= end) {
                done.countDown();
                return;
            }
            long n = sequence.getAndIncrement();
            int domain = (int) (n % SITE.domains());
            int page = (int) (n / SITE.domains() % SITE.pagesPerDomain());
            fetch.apply(origin.url(domain, SyntheticSite.PAGE_PREFIX + page)).whenComplete((length, failure) -> {
                if (failure != null || length < 0) {
                    errors.incrementAndGet();
                } else {
                    pages.incrementAndGet();
                    bytes.addAndGet(length);
                }
                loop[0].run();
            });
        };
        for (int i = 0; i < concurrency; i++) {
            loop[0].run();
        }
        long peakRss = 0;
        long liveHeap = -1;
        boolean marked = false;
        while (!done.await(250, TimeUnit.MILLISECONDS)) {
            peakRss = Math.max(peakRss, rssKiB());
            if (liveHeap < 0 && System.nanoTime() >= measureFrom + MEASURE.toNanos() / 2) {
                System.gc(); // the heap the fetches in flight hold, halfway through the measurement
                liveHeap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            }
            if (!marked && System.nanoTime() >= measureFrom) {
                atMeasureStart[0] = pages.get();
                atMeasureStart[1] = bytes.get();
                atMeasureStart[2] = errors.get();
                marked = true;
            }
        }
        double seconds = MEASURE.toNanos() / 1e9;
        long measuredPages = pages.get() - atMeasureStart[0];
        String line = String.format(Locale.ROOT,
                "%-22s concurrency %3d: %7.0f pages/s, %6.1f MB/s, errors %d, peak RSS %d MiB, heap after GC %d MiB, load %s",
                client, concurrency, measuredPages / seconds, (bytes.get() - atMeasureStart[1]) / seconds / 1e6,
                errors.get() - atMeasureStart[2], peakRss / 1024,
                liveHeap >> 20, loadAverage());
        report(line);
    }

    private static long rssKiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

    private static String loadAverage() throws IOException {
        String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return fields[0] + " " + fields[1] + " " + fields[2];
    }

    static void report(String line) throws IOException {
        System.out.println(line);
        Path file = Path.of("target", "benchmarks", "fetcher.txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
