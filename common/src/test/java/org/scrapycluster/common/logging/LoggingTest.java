package org.scrapycluster.common.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.RawValue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;

class LoggingTest {

    @TempDir
    Path dir;

    private final LoggerContext context = new LoggerContext();

    @BeforeEach
    void start() {
        context.setMDCAdapter(new LogbackMDCAdapter());
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    @Test
    void jsonLinesCarryMessageLevelTimestampLoggerAndTheKeyValues() throws IOException {
        install("kafka-monitor", Map.of("LOG_JSON", "true"));
        context.getLogger("org.scrapycluster.kafkamonitor.KafkaMonitor").atInfo()
                .addKeyValue("appid", "testapp").addKeyValue("parsed", true).addKeyValue("level", "spoofed")
                .log("Added crawl to Redis");
        context.getLogger("org.apache.kafka.clients.NetworkClient").warn("Connection to node -1 could not be established");

        List<String> lines = logLines("kafka_monitor.log");
        assertEquals(2, lines.size(), lines.toString());
        JsonNode record = new ObjectMapper().readTree(lines.get(0));
        assertEquals(List.of("message", "level", "timestamp", "logger", "appid", "parsed"), fieldNames(record));
        assertEquals("Added crawl to Redis", record.get("message").asText());
        assertEquals("INFO", record.get("level").asText());
        assertEquals("kafka-monitor", record.get("logger").asText());
        assertEquals("testapp", record.get("appid").asText());
        assertTrue(record.get("parsed").asBoolean());
        assertTrue(record.get("timestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z"),
                record.get("timestamp").asText());

        JsonNode library = new ObjectMapper().readTree(lines.get(1));
        assertEquals("WARNING", library.get("level").asText());
        assertEquals("org.apache.kafka.clients.NetworkClient", library.get("logger").asText());
    }

    @Test
    void textLinesFollowTheOriginalsFormatWithKeyValuesAppended() throws IOException {
        install("redis-monitor", Map.of());
        context.getLogger("org.scrapycluster.redismonitor.Plugin").atInfo().addKeyValue("crawlid", "c1").log("Sent stop ack to kafka");
        context.getLogger("org.scrapycluster.redismonitor.Plugin").error("Failed to connect to Redis", new IllegalStateException("refused"));
        context.getLogger("org.scrapycluster.redismonitor.Plugin").debug("not shown at INFO");

        List<String> lines = logLines("redis_monitor.log");
        assertTrue(lines.get(0).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} \\[redis-monitor] INFO: "
                + "Sent stop ack to kafka \\{\"crawlid\":\"c1\"}"), lines.get(0));
        assertTrue(lines.get(1).endsWith(" [redis-monitor] ERROR: Failed to connect to Redis"), lines.get(1));
        assertTrue(lines.get(2).startsWith("java.lang.IllegalStateException: refused"), lines.get(2));
        assertFalse(String.join("\n", lines).contains("not shown"));
    }

    @Test
    void aValueJacksonCannotWriteIsItsTextAndTheOthersStayJsonInEitherFormat() throws IOException {
        for (boolean json : List.of(false, true)) {
            install("redis-monitor", Map.of("LOG_JSON", Boolean.toString(json)));
            context.getLogger("org.scrapycluster.redismonitor.Plugin").atError().addKeyValue("extension", "peek\u2028x")
                    .addKeyValue("waited", Duration.ofSeconds(5)).addKeyValue("count", 2).log("did not close");
            context.stop();

            String written = Files.readString(dir.resolve("redis_monitor.log"));
            JsonNode values = new ObjectMapper().readTree(json ? written : written.substring(written.indexOf('{')));
            assertEquals("peek\u2028x", values.get("extension").asText(), written);
            assertEquals("PT5S", values.get("waited").asText(), written);
            assertEquals(2, values.get("count").asInt(), written);
            assertEquals(-1, written.indexOf('\u2028'), written);
            Files.delete(dir.resolve("redis_monitor.log"));
        }
    }

    /** A site's password in a crawl's URL stays out of the log: in the message, the values and a stack trace, in either format. */
    @Test
    void aUrlsPasswordIsHiddenWhereverTheLineShowsIt() throws IOException {
        for (boolean json : List.of(false, true)) {
            install("redis-monitor", Map.of("LOG_JSON", Boolean.toString(json)));
            context.getLogger("org.scrapycluster.crawler.pipeline.LoggingPipeline").atInfo()
                    .addKeyValue("url", "http://alice:s3cr3t@127.0.0.7/a")
                    .addKeyValue("response_url", URI.create("http://bob:hunter2@x.test/"))
                    .addKeyValue("attrs", Map.of("next", "https://carol:pa55@y.test/"))
                    .addKeyValue("record", new RawValue("\"ftp://d:pw4@z.test\""))
                    .log("Scraped page http://alice:s3cr3t@127.0.0.7/a");
            context.getLogger("org.scrapycluster.crawler.fetch.Fetcher").atWarn()
                    .setCause(new IllegalStateException("no answer from http://alice:s3cr3t@127.0.0.7/a")).log("Fetch failed");
            context.stop();

            String written = Files.readString(dir.resolve("redis_monitor.log"));
            for (String password : List.of("s3cr3t", "hunter2", "pa55", "pw4")) {
                assertFalse(written.contains(password), password + " in " + written);
            }
            assertTrue(written.contains("http://alice:***@127.0.0.7/a") && written.contains("http://bob:***@x.test/")
                    && written.contains("https://carol:***@y.test/") && written.contains("ftp://d:***@z.test"), written);
            Files.delete(dir.resolve("redis_monitor.log"));
        }
    }

    /** A message that names a 100 KB text a caller sent (a rejected job's key) is cut as a field is, in either format. */
    @Test
    void aLongMessageIsShownCutWithItsLength() throws IOException {
        String key = "zk:domain-update:" + "d".repeat(100_000);
        for (boolean json : List.of(false, true)) {
            install("redis-monitor", Map.of("LOG_JSON", Boolean.toString(json)));
            context.getLogger("org.scrapycluster.redismonitor.job.JobProcessor").atWarn().log("Rejected job {}: {}", key, "too long");
            context.stop();

            String written = Files.readString(dir.resolve("redis_monitor.log"));
            assertTrue(written.length() < ShownText.MAX_CHARACTERS + 500, written.length() + " characters");
            String shown = ("Rejected job " + key).substring(0, ShownText.MAX_CHARACTERS) + "… (100040 characters in all)";
            String message = json ? new ObjectMapper().readTree(written).get("message").asText() : written;
            assertTrue(json ? message.equals(shown) : message.contains(shown), written);
            Files.delete(dir.resolve("redis_monitor.log"));
        }
    }

    /** A 100 KB URL or a 20,000-field {@code attrs} a caller sent is shown cut, in either format, the line still JSON. */
    @Test
    void aLongValueIsShownCutWithItsLengthInEitherFormat() throws IOException {
        String url = "http://127.0.0.7/" + "a".repeat(100_000);
        String attrs = "{" + "\"k\":1,".repeat(20_000) + "\"z\":2}";
        for (boolean json : List.of(false, true)) {
            install("kafka-monitor", Map.of("LOG_JSON", Boolean.toString(json)));
            Map<String, Integer> fields = new TreeMap<>();
            for (int i = 0; i < 20_000; i++) {
                fields.put("k" + i, i);
            }
            context.getLogger("org.scrapycluster.kafkamonitor.Intake").atInfo().addKeyValue("url", url)
                    .addKeyValue("attrs", new RawValue(attrs)).addKeyValue("meta", fields).addKeyValue("appid", "abc")
                    .log("Added crawl to Redis");
            context.stop();

            String written = Files.readString(dir.resolve("kafka_monitor.log"));
            assertTrue(written.length() < 4 * ShownText.MAX_CHARACTERS + 500, written.length() + " characters");
            JsonNode values = new ObjectMapper().readTree(json ? written : written.substring(written.indexOf('{')));
            assertEquals(url.substring(0, ShownText.MAX_CHARACTERS) + "… (100017 characters in all)", values.get("url").asText());
            assertEquals(attrs.substring(0, ShownText.MAX_CHARACTERS) + "… (" + attrs.length() + " characters in all)",
                    values.get("attrs").asText());
            assertTrue(values.get("meta").asText().startsWith("{\"k0\":0,\"k1\":1,") && values.get("meta").asText().endsWith(
                    " characters in all)"), "a map as its JSON, cut, as the crawler's logging pipeline logs a page's attrs");
            assertEquals("abc", values.get("appid").asText());
            Files.delete(dir.resolve("kafka_monitor.log"));
        }
    }

    @Test
    void aMessageCannotStartATextLineOfItsOwn() throws IOException {
        install("rest", Map.of());
        // GET /x%0a2026-11-28%2010:00:00,000%20[rest-service]%20ERROR:%20... decodes to this path
        context.getLogger("org.scrapycluster.rest.http.Dispatcher")
                .info("GET /x\n2026-11-28 10:00:00,000 [rest-service] ERROR: forged\r\u0085\u2028\t 404");

        List<String> lines = logLines("rest_service.log");
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).endsWith("INFO: GET /x\\n2026-11-28 10:00:00,000 [rest-service] ERROR: forged\\r\\u0085\\u2028\\t 404"),
                lines.get(0));
    }

    @Test
    void aKeyValueCannotStartALineOfItsOwnInEitherFormat() throws IOException {
        String forged = "x\u0085FAKE\u2028FAKE\u2029FAKE";
        for (boolean json : List.of(false, true)) {
            install("rest", Map.of("LOG_JSON", Boolean.toString(json)));
            context.getLogger("org.scrapycluster.rest.http.Dispatcher").atInfo().addKeyValue("path", forged).log("GET");
            context.stop();

            String written = Files.readString(dir.resolve("rest_service.log"));
            assertEquals(-1, written.indexOf('\u0085'), written);
            assertEquals(-1, written.indexOf('\u2028'), written);
            assertEquals(-1, written.indexOf('\u2029'), written);
            String values = json ? written : written.substring(written.indexOf('{'));
            assertEquals(forged, new ObjectMapper().readTree(values).get("path").asText(), "reads back as logged");
            Files.delete(dir.resolve("rest_service.log"));
        }
    }

    @Test
    void theCrawlerLogsWithItsScPrefixedSettings() throws IOException {
        install("crawler", Map.of("SC_LOG_LEVEL", "DEBUG", "SC_LOG_JSON", "1"));
        context.getLogger("org.scrapycluster.crawler.Fetcher").debug("Scraped page");
        JsonNode record = new ObjectMapper().readTree(logLines("sc_crawler.log").get(0));
        assertEquals("sc-crawler", record.get("logger").asText());
        assertEquals("DEBUG", record.get("level").asText());
    }

    @Test
    void aToolRunWithAServicesSettingsLogsUnderItsOwnNameToAFileOfItsOwn() throws IOException {
        LogConfig dump = LogConfig.forTool(settings("kafka-monitor", Map.of("LOG_JSON", "true")), "dump");
        Logging.install(context, dump, ServiceLoggerNames.single(dump.loggerName()));
        context.getLogger("org.scrapycluster.kafkamonitor.tool.DumpCommand").warn("Kafka went away");
        assertEquals("dump", new ObjectMapper().readTree(logLines("dump.log").get(0)).get("logger").asText());
        assertFalse(Files.exists(dir.resolve("kafka_monitor.log")), "not the Kafka monitor's file");

        LogConfig named = LogConfig.forTool(settings("kafka-monitor", Map.of("LOGGER_NAME", "ops", "LOG_FILE", "ops.log")), "dump");
        assertEquals("ops", named.loggerName(), "a name the user gave is kept");
        assertEquals("ops.log", named.file(), "and so is a file");
    }

    @Test
    void libraryLoggersDefaultToWarnAndCanBeChangedOneByOne() {
        install("kafka-monitor", Map.of("LOG_LEVELS", "{org.apache.zookeeper: DEBUG}"));
        assertEquals(Level.WARN, context.getLogger("org.apache.kafka").getLevel());
        assertEquals(Level.WARN, context.getLogger("io.lettuce").getLevel());
        assertEquals(Level.DEBUG, context.getLogger("org.apache.zookeeper").getLevel());
    }

    @Test
    void aLibrarysRepeatedWarningIsHeldBackUnlessLogRepeatSecondsIsZero() throws IOException {
        install("redis-monitor", Map.of());
        warnThrice();
        assertEquals(1, logLines("redis_monitor.log").size());
        install("redis-monitor", Map.of("LOG_REPEAT_SECONDS", "0"));
        warnThrice();
        assertEquals(3, logLines("redis_monitor.log").size() - 1, "every repeat, after the line written before");
    }

    private void warnThrice() {
        for (int i = 0; i < 3; i++) {
            context.getLogger("org.apache.kafka.clients.NetworkClient").warn("Connection to node {} could not be established", -1);
        }
    }

    @Test
    void aLoggerLogsErrorsOnlyWhileAnActionRunsThenAsBefore() throws IOException {
        install("redis-monitor", Map.of());
        String networkClient = "org.apache.kafka.clients.NetworkClient";
        Logging.errorsOnlyWhile(context, networkClient, () -> {
            context.getLogger(networkClient).warn("Attempting to close NetworkClient that has already been closed.");
            context.getLogger(networkClient).error("Unexpected error during I/O");
        });
        assertNull(context.getLogger(networkClient).getLevel(), "its own level again: none, so the library default");
        context.getLogger(networkClient).warn("Connection to node -1 could not be established");

        List<String> lines = logLines("redis_monitor.log");
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).endsWith("ERROR: Unexpected error during I/O"), lines.get(0));
        assertTrue(lines.get(1).endsWith("WARNING: Connection to node -1 could not be established"), lines.get(1));
    }

    @Test
    void standaloneNamesEachServicesRecordsAfterTheService() {
        ServiceLoggerNames names = Logging.namesFor("scrapy-cluster", Map.of(
                "kafka-monitor", Settings.defaults("kafka-monitor"), "crawler", Settings.defaults("crawler")));
        assertEquals("kafka-monitor", names.nameFor("org.scrapycluster.kafkamonitor.plugins.ScraperHandler"));
        assertEquals("sc-crawler", names.nameFor("org.scrapycluster.crawler.Fetcher"));
        assertEquals("scrapy-cluster", names.nameFor("org.scrapycluster.common.queue.DomainQueue"));
        assertEquals("scrapy-cluster", names.nameFor("org.scrapycluster.crawlerx.Other"), "a package prefix matches whole segments only");
        assertEquals("io.netty.Bootstrap", names.nameFor("io.netty.Bootstrap"));
    }

    @Test
    void theFileIsRotatedOnceItPassesLogMaxBytes() throws Exception {
        install("rest", Map.of("LOG_MAX_BYTES", "2000", "LOG_BACKUPS", "2"));
        ch.qos.logback.classic.Logger log = context.getLogger("org.scrapycluster.rest.Gateway");
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 50; i++) {
                log.info("'feed' endpoint called with request number {} of round {}", i, round);
            }
            Thread.sleep(1_100);
        }
        log.info("after the last size check");
        context.stop();

        assertTrue(Files.exists(dir.resolve("rest_service.log.1")), "rotated once the size was looked at");
        assertTrue(Files.size(dir.resolve("rest_service.log")) < 10_000, "the file stays near LOG_MAX_BYTES");
        assertFalse(Files.exists(dir.resolve("rest_service.log.3")), "LOG_BACKUPS files are kept");
    }

    @Test
    void anUnknownLevelNamesTheSetting() {
        Settings settings = Settings.load("rest", new SettingsSources(null, Map.of("LOG_LEVEL", "LOUD"), Map.of()));
        SettingsException e = assertThrows(SettingsException.class, () -> LogConfig.from(settings));
        assertTrue(e.getMessage().startsWith("Setting LOG_LEVEL (from the environment) has \"LOUD\""), e.getMessage());
    }

    @Test
    void aMissingLogDirIsCreated() throws IOException {
        Path logs = dir.resolve("a").resolve("logs");
        install("redis-monitor", Map.of("LOG_DIR", logs.toString()));
        context.getLogger("org.scrapycluster.redismonitor.RedisMonitor").info("started");
        context.stop();

        assertEquals(1, Files.readAllLines(logs.resolve("redis_monitor.log")).size());
    }

    @Test
    void aLogDirThatCannotBeCreatedIsASettingsError() throws IOException {
        Path notAFolder = Files.writeString(dir.resolve("not-a-folder"), "");
        Path logs = notAFolder.resolve("logs");
        SettingsException e = assertThrows(SettingsException.class, () -> install("crawler", Map.of("SC_LOG_DIR", logs.toString())));
        assertEquals("Setting SC_LOG_DIR (from the command line) is " + logs + ", which cannot be created: Not a directory", e.getMessage());
    }

    /**
     * A library left at its default level (WARN) is quieter than the service, never louder: under {@code -ll ERROR} its
     * warnings go too (a client retrying a server that is away wrote a WARN with a stack trace once a minute, while the
     * service's own line of the same outage was held back). A level set for a library is kept, a louder one included.
     */
    @Test
    void aLibraryLeftAtItsDefaultIsNeverLouderThanTheLogLevel() {
        LogConfig quiet = LogConfig.from(settings("kafka-monitor", Map.of("LOG_LEVEL", "ERROR", "LOG_LEVELS", "{io.netty: DEBUG}")));
        assertEquals(Level.ERROR, quiet.levels().get("org.apache.kafka"));
        assertEquals(Level.DEBUG, quiet.levels().get("io.netty"), "set by the user");

        LogConfig usual = LogConfig.from(settings("crawler", Map.of()));
        assertEquals(Level.WARN, usual.levels().get("org.apache.kafka"), "quieter than INFO, as by default");
    }

    @Test
    void aLogFileThatCannotBeOpenedIsASettingsError() throws IOException {
        Files.createDirectory(dir.resolve("rest_service.log"));
        SettingsException e = assertThrows(SettingsException.class, () -> install("rest", Map.of()));
        assertTrue(e.getMessage().startsWith("Setting LOG_FILE (from the defaults) is rest_service.log, but "
                + dir.resolve("rest_service.log") + " cannot be opened for writing: "), e.getMessage());
        assertTrue(e.getMessage().contains("Is a directory"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }

    private void install(String service, Map<String, String> overrides) {
        LogConfig config = LogConfig.from(settings(service, overrides));
        Logging.install(context, config, ServiceLoggerNames.single(config.loggerName()));
    }

    /** {@code service}'s settings with {@code overrides}, logging to a file in {@link #dir}. */
    private Settings settings(String service, Map<String, String> overrides) {
        Map<String, String> sets = new java.util.LinkedHashMap<>(overrides);
        String prefix = service.equals("crawler") ? "SC_" : "";
        sets.put(prefix + "LOG_STDOUT", "false");
        sets.putIfAbsent(prefix + "LOG_DIR", dir.toString());
        return Settings.load(service, new SettingsSources(null, Map.of(), sets));
    }

    private List<String> logLines(String file) throws IOException {
        context.stop();
        return Files.readAllLines(dir.resolve(file));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
