package org.scrapycluster.standalone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

class ScrapyClusterCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void helpListsStandaloneAndTheContributedSubcommands() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString().startsWith("Usage: scrapy-cluster [-hV] [COMMAND]"), out.toString());
        assertTrue(out.toString().contains("  standalone "), out.toString());
        assertTrue(out.toString().contains("  echo-setting "), out.toString());
    }

    @Test
    void benchGathersTheContributedBenchmarks() {
        assertEquals(0, run("bench", "--help"));
        assertTrue(out.toString().contains("  redis-monitor "), out.toString());
        out.getBuffer().setLength(0);
        assertEquals(0, run("bench", "redis-monitor", "--help"));
        assertTrue(out.toString().startsWith("Usage: scrapy-cluster bench redis-monitor"), out.toString());
    }

    @Test
    void helpShowsTheUsageOfTheCommandOrSubcommandNamed() {
        assertEquals(0, run("help"));
        assertTrue(out.toString().startsWith("Usage: scrapy-cluster [-hV] [COMMAND]"), out.toString());
        out.getBuffer().setLength(0);
        assertEquals(0, run("help", "dump", "list"));
        assertTrue(out.toString().startsWith("Usage: scrapy-cluster dump list "), out.toString());
        out.getBuffer().setLength(0);
        assertEquals(0, run("help", "bench", "crawl"));
        assertTrue(out.toString().startsWith("Usage: scrapy-cluster bench crawl "), out.toString());

        assertEquals(2, run("help", "dump", "lists"));
        assertTrue(err.toString().startsWith("Unknown subcommand 'dump lists'"), err.toString());
    }

    @Test
    void versionComesFromTheBuild() {
        assertEquals(0, run("--version"));
        assertTrue(out.toString().matches("(?s)Scrapy Cluster for Java \\d+\\.\\d+\\.\\d+.*"), out.toString());
    }

    @Test
    void everySubcommandAnswersVersionAsTheRootDoes() {
        assertEquals(0, run("--version"));
        String version = out.toString();
        for (String[] command : List.of(new String[] {"crawler"}, new String[] {"dump", "list"}, new String[] {"zookeeper", "push"},
                new String[] {"bench", "crawl"}, new String[] {"standalone"})) {
            out.getBuffer().setLength(0);
            List<String> args = new ArrayList<>(List.of(command));
            args.add("--version");
            assertEquals(0, run(args.toArray(String[]::new)), args.toString());
            assertEquals(version, out.toString(), args.toString());
        }
    }

    /** A file or a server that is not there is said in one line: a stack trace is for a bug. */
    @Test
    void aFailureOfInputOrOutputIsOneLineWithoutAStackTrace() {
        assertEquals(1, run("bench", "profile", "/nonexistent/recording.jfr"));
        assertTrue(err.toString().startsWith("scrapy-cluster bench profile: ") && err.toString().strip().lines().count() == 1,
                err.toString());
    }

    @Test
    void aContributedSubcommandSharesTheSettingsOptions() {
        assertEquals(0, run("echo-setting", "--set", "QUEUE_HITS=25", "--log-level", "DEBUG", "QUEUE_HITS"));
        assertEquals("QUEUE_HITS=25", out.toString().strip());
        out.getBuffer().setLength(0);
        assertEquals(0, run("echo-setting", "--log-json", "SC_LOG_JSON"));
        assertEquals("SC_LOG_JSON=true", out.toString().strip(), "the crawler's logging flags set its SC_ settings");
    }

    @Test
    void aBadSettingIsAClearErrorWithoutAStackTrace() {
        assertEquals(2, run("echo-setting", "--set", "QUEUE_HITS=many", "QUEUE_HITS"));
        assertEquals("scrapy-cluster echo-setting: Setting QUEUE_HITS from the command line: \"many\" is not an int (expected int)",
                err.toString().strip());
    }

    @Test
    void benchRunsAContributedBenchmarkAgainstAnEmbeddedRedis() {
        assertEquals(0, run("bench", "throttle", "--seconds", "1", "--concurrency", "8"));
        String printed = out.toString();
        assertTrue(printed.startsWith("Throttle benchmark: Redis redis://127.0.0.1:"), printed);
        for (String scenario : new String[] {"enqueue", "hand-out", "wait"}) {
            assertTrue(printed.lines().anyMatch(line -> line.startsWith(scenario) && line.contains(" 0 failed)")), printed);
        }
    }

    @Test
    void trainCrawlsEveryPageOfTheSiteOnceACrawl() {
        assertEquals(0, run("train", "--crawls", "1"));
        assertTrue(out.toString().matches("(?s)Trained: 2500 pages crawled in \\d+\\.\\d s\\R"), out.toString());
    }

    @Test
    void trainRefusesNoCrawls() {
        assertEquals(2, run("train", "--crawls", "0"));
        assertTrue(err.toString().contains("--crawls and --timeout must be at least 1"), err.toString());
    }

    @Test
    void benchWithoutABenchmarkNamesTheBenchmarks() {
        assertEquals(2, run("bench"));
        assertTrue(err.toString().contains("Missing benchmark: one of [") && err.toString().contains("throttle"), err.toString());
    }

    @Test
    void theOriginalsSettingsFileOptionNamesConfigInstead() {
        for (String option : List.of("-s", "--settings")) {
            err.getBuffer().setLength(0);
            assertEquals(2, run("kafka-monitor", option, "localsettings.py"), option);
            assertEquals("Unknown options: '" + option + "', 'localsettings.py'\nThe original's settings file (-s, --settings"
                    + " localsettings.py) is a YAML file here, given with --config FILE (docs/compatibility.md, §9).",
                    err.toString().strip().replace(System.lineSeparator(), "\n"));
        }
        err.getBuffer().setLength(0);
        assertEquals(2, run("kafka-monitor", "--sett", "QUEUE_HITS=2"));
        assertTrue(err.toString().contains("Possible solutions: --set"), "other options keep picocli's suggestions: " + err);
    }

    @Test
    void anEmptyFileNameIsAUsageErrorNotTheWorkingDirectory() {
        assertEquals(2, run("feed", "--file", ""));
        assertTrue(err.toString().startsWith("Invalid value for option '--file': an empty path names no file"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("zookeeper", "push", ""));
        assertTrue(err.toString().startsWith("Invalid value for positional parameter at index 0 (FILE): an empty path names no file"),
                err.toString());
    }

    @Test
    void standaloneCheckSaysGoodSettingsAreGoodAndReturnsWithoutStarting() {
        // A start would not return: it waits for Ctrl-C or SIGTERM.
        assertEquals(0, run(check("--set", "QUEUE_HITS=25", "--crawlers", "64")));
        assertEquals("The settings and options are good", out.toString().strip());
        assertEquals("", err.toString());
    }

    @Test
    void standaloneCheckNamesWhatIsWrong() throws IOException {
        assertEquals(2, run(check("--set", "CONCURRENT_REQUESTS=abc")));
        assertEquals("scrapy-cluster standalone: Setting CONCURRENT_REQUESTS from the command line: \"abc\" is not an int"
                + " (expected int)", err.toString().strip());

        err.getBuffer().setLength(0);
        assertEquals(2, run(check("--crawlers", "65")));
        assertTrue(err.toString().startsWith("scrapy-cluster standalone: The number of crawlers (--crawlers, STANDALONE_CRAWLERS)"
                + " is 65; give 0 to 64"), err.toString());

        err.getBuffer().setLength(0);
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertEquals(2, run(check("--set", "STANDALONE_REDIS_PORT=" + taken.getLocalPort())));
            assertTrue(err.toString().startsWith("scrapy-cluster standalone: Setting STANDALONE_REDIS_PORT (from the command line) is "
                    + taken.getLocalPort() + ", and something already listens there"), err.toString());
            for (String listener : List.of("FLASK_PORT", "METRICS_PORT")) {
                err.getBuffer().setLength(0);
                assertEquals(2, run(check("--set", listener + "=" + taken.getLocalPort())), listener);
                assertTrue(err.toString().startsWith("scrapy-cluster standalone: Setting " + listener + " (from the command line) is "
                        + taken.getLocalPort() + ", and something already listens on 127.0.0.1:" + taken.getLocalPort()), err.toString());
            }
        }
        for (String[] wrong : List.of(
                new String[] {"redis-monitor.RETRY_FAILURES_MAX=-1", "Setting redis-monitor.RETRY_FAILURES_MAX (from the command line) must be at least 0"},
                new String[] {"crawler.CONCURRENT_REQUESTS=0", "Setting crawler.CONCURRENT_REQUESTS (from the command line) "},
                new String[] {"kafka-monitor.PLUGINS={com.example.Missing: 900}", "Setting kafka-monitor.PLUGINS (from the command line) "},
                new String[] {"REST_MAX_CONNECTIONS=0", "Setting REST_MAX_CONNECTIONS (from the command line) must be at least 1"},
                new String[] {"REDIS_PASSWORD=s3cret", "Setting REDIS_PASSWORD (from the command line) is set, but this standalone runs "
                        + "its own Redis, which asks for no login and speaks no TLS"},
                new String[] {"REDIS_TLS=true", "Setting REDIS_TLS (from the command line) is set, but this standalone runs its own"},
                new String[] {"ZOOKEEPER_TLS=true", "Setting ZOOKEEPER_TLS (from the command line) is true, but this standalone runs "
                        + "its own ZooKeeper, which speaks no TLS"},
                new String[] {"METRICS_PORT=70000", "Setting METRICS_PORT (from the command line) is 70000; use a port, 0 for any"},
                new String[] {"METRICS_HOST=192.0.2.1", "Setting METRICS_HOST (from the command line) is 192.0.2.1, which is not an "
                        + "address of this host"})) {
            err.getBuffer().setLength(0);
            assertEquals(2, run(check("--set", wrong[0])), wrong[0]);
            assertTrue(err.toString().startsWith("scrapy-cluster standalone: " + wrong[1]), "every service's own values: " + err);
        }
        err.getBuffer().setLength(0);
        assertEquals(2, run(check("--set", "FLASK_HOST=192.0.2.1", "--set", "REST_ALLOW_ANONYMOUS=true")));
        assertEquals("scrapy-cluster standalone: Setting FLASK_HOST (from the command line) is 192.0.2.1, which is not an address of "
                + "this host", err.toString().strip(), "not a port something listens on");
        assertEquals("", out.toString(), "nothing said to be good");
    }

    /** A service's check refuses what its start would: the address of its metrics endpoint too. */
    @Test
    void aServicesCheckRefusesAMetricsEndpointItsStartWouldRefuse() {
        for (String service : List.of("kafka-monitor", "redis-monitor", "crawler", "rest")) {
            for (String[] wrong : List.of(new String[] {"METRICS_PORT=70000", "Setting METRICS_PORT (from the command line) is 70000"},
                    new String[] {"METRICS_HOST=192.0.2.1", "Setting METRICS_HOST (from the command line) is 192.0.2.1"})) {
                err.getBuffer().setLength(0);
                assertEquals(2, run(service, "--check", "--set", "METRICS_PORT=0", "--set", wrong[0]), service + " " + wrong[0]);
                assertTrue(err.toString().contains(wrong[1]), service + ": " + err);
            }
        }
        assertEquals("", out.toString(), "nothing said to be good");
    }

    /** A check says what a start would warn of: a disk with less room than the broker may keep of a partition. */
    @Test
    void standaloneCheckWarnsOfADiskTheBrokerMayFill() {
        long petabyte = 1L << 50;
        PrintStream console = System.out;
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        System.setOut(new PrintStream(logged, true, StandardCharsets.UTF_8)); // where the check's logging writes
        try {
            assertEquals(0, run(check("--set", "STANDALONE_KAFKA_RETENTION_BYTES=" + petabyte)), err.toString());
        } finally {
            System.setOut(console);
        }
        assertEquals("The settings and options are good", out.toString().strip(), "a warning, not a refusal");
        String log = logged.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("WARN") && log.contains("The data folder " + Path.of(System.getProperty("java.io.tmpdir")) + " has ")
                && log.contains(" MiB of room, less than the " + (petabyte / (1 << 20) + 128) + " MiB"), log);
    }

    /** {@code standalone --check} with {@code options}, its embedded servers on any free ports. */
    private static String[] check(String... options) {
        List<String> args = new ArrayList<>(List.of("standalone", "--check", "--set", "STANDALONE_KAFKA_PORT=0",
                "--set", "STANDALONE_ZOOKEEPER_PORT=0", "--set", "STANDALONE_REDIS_PORT=0", "--set", "FLASK_PORT=0",
                "--set", "METRICS_PORT=0"));
        args.addAll(List.of(options));
        return args.toArray(String[]::new);
    }

    /** A service's own {@code --check}, for a deployment to try its configuration: nothing started, no server needed. */
    @Test
    void eachServiceChecksItsSettingsWithoutStarting() {
        for (String service : List.of("kafka-monitor", "redis-monitor", "crawler", "rest")) {
            out.getBuffer().setLength(0);
            assertEquals(0, run(service, "--check", "--set", "REDIS_PORT=1"), service + ": " + err);
            assertEquals("The settings and options are good", out.toString().strip(), service);
        }
        for (String[] wrong : List.of(
                new String[] {"redis-monitor", "RETRY_FAILURES_MAX=-1", "Setting RETRY_FAILURES_MAX (from the command line) must be at least 0"},
                new String[] {"crawler", "CONCURRENT_REQUESTS=0", "Setting CONCURRENT_REQUESTS (from the command line) "},
                new String[] {"kafka-monitor", "PLUGINS={com.example.Missing: 900}", "Setting PLUGINS (from the command line) "},
                new String[] {"rest", "FLASK_HOST=0.0.0.0", "Setting FLASK_HOST (from the command line) is 0.0.0.0, reachable from other hosts"},
                new String[] {"rest", "JSON_MAX_DOCUMENT_BYTES=-1", "Setting JSON_MAX_DOCUMENT_BYTES (from the command line) must be at least 1"},
                new String[] {"rest", "QUEUE_WINDOW=0", "Setting QUEUE_WINDOW (from the command line) must be a positive number"},
                new String[] {"crawler", "KAFKA_TOPIC_PREFIX=my topics", "Setting KAFKA_TOPIC_PREFIX (from the command line) is 'my topics'"},
                new String[] {"redis-monitor", "ZOOKEEPER_HOSTS=, ,", "Setting ZOOKEEPER_HOSTS (from the command line) "},
                new String[] {"redis-monitor", "ZOOKEEPER_DIGEST=secret-alone", "Setting ZOOKEEPER_DIGEST (from the command line) is not "
                        + "user:password"},
                new String[] {"rest", "REDIS_TLS_CERT_FILE=/nowhere.crt", "Setting REDIS_TLS_CERT_FILE (from the command line) names a file "
                        + "for Redis's TLS, so REDIS_TLS must be true"},
                new String[] {"crawler", "ZOOKEEPER_TLS_CA_FILE=/nowhere.crt",
                    "Setting ZOOKEEPER_TLS_CA_FILE (from the command line) names a file for ZooKeeper's TLS, so ZOOKEEPER_TLS must "
                        + "be true"})) {
            err.getBuffer().setLength(0);
            assertEquals(2, run(wrong[0], "--check", "--set", wrong[1]), wrong[1]);
            assertTrue(err.toString().startsWith("scrapy-cluster " + wrong[0] + ": " + wrong[2]), err.toString());
        }
        err.getBuffer().setLength(0);
        assertEquals(2, run("crawler", "--check", "--spider", "nope"));
        assertTrue(err.toString().startsWith("scrapy-cluster crawler: Setting SPIDER_NAME (from the command line) names 'nope'"), err.toString());
    }

    @Test
    void noSubcommandIsAUsageError() {
        assertEquals(2, run());
        assertTrue(err.toString().contains("Missing subcommand"), err.toString());
    }

    private int run(String... args) {
        CommandLine cli = ScrapyCluster.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }
}
