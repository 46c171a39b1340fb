package org.scrapycluster.common.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsLayersTest {

    @TempDir
    Path dir;

    @Test
    void defaultsComeFromTheServiceFileAndItsIncludes() {
        Settings km = Settings.defaults("kafka-monitor");
        assertEquals("localhost", km.getString("REDIS_HOST"));
        assertEquals(6379, km.getInt("REDIS_PORT"));
        assertNull(km.getNullableString("REDIS_PASSWORD"));
        assertEquals(List.of("localhost:9092"), km.getStringList("KAFKA_HOSTS"));
        assertEquals("earliest", km.getString("KAFKA_CONSUMER_AUTO_OFFSET_RESET"));
        assertEquals("kafka_monitor.log", km.getString("LOG_FILE"));
        assertEquals(Duration.ofMillis(10), km.getSeconds("SLEEP_TIME"));
        assertEquals(Layer.DEFAULT, km.layerOf("REDIS_HOST"));
        assertFalse(km.isUserSet("REDIS_HOST"));

        Settings rest = Settings.defaults("rest");
        assertEquals("latest", rest.getString("KAFKA_CONSUMER_AUTO_OFFSET_RESET"));
        assertEquals("rest_service.log", rest.getString("LOG_FILE"));

        Settings crawler = Settings.defaults("crawler");
        assertEquals(List.of(200, 404, 403, 504), crawler.getIntList("STATS_RESPONSE_CODES"));
        assertNull(crawler.getNullableInt("GLOBAL_PAGE_PER_DOMAIN_LIMIT"));
        assertFalse(crawler.has("LOG_FILE"), "the crawler logs with SC_LOG_* settings");
        assertEquals("sc_crawler.log", crawler.getString("SC_LOG_FILE"));
    }

    @Test
    void eachLayerOverridesTheOneBelow() throws IOException {
        Path file = write("REDIS_HOST: file-host\nREDIS_PORT: 7000\nREDIS_DB: 3\n");
        Map<String, String> env = Map.of("REDIS_PORT", "7001", "REDIS_DB", "4", "PATH", "/usr/bin");
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(file, env, Map.of("REDIS_DB", "5")));

        assertEquals("file-host", settings.getString("REDIS_HOST"));
        assertEquals(Layer.FILE, settings.layerOf("REDIS_HOST"));
        assertEquals(7001, settings.getInt("REDIS_PORT"));
        assertEquals(Layer.ENVIRONMENT, settings.layerOf("REDIS_PORT"));
        assertEquals(5, settings.getInt("REDIS_DB"));
        assertEquals(Layer.COMMAND_LINE, settings.layerOf("REDIS_DB"));
        assertTrue(settings.isUserSet("REDIS_DB"));
        assertFalse(settings.isUserSet("KAFKA_GROUP"));
    }

    @Test
    void environmentTextIsConvertedToTheDefaultsType() {
        Map<String, String> env = Map.of(
                "KAFKA_HOSTS", "k1:9092, k2:9092,",
                "LOG_JSON", "TRUE",
                "STATS_TOTAL", "",
                "SLEEP_TIME", "0.5",
                "REDIS_PASSWORD", "");
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, env, Map.of()));

        assertEquals(List.of("k1:9092", "k2:9092"), settings.getStringList("KAFKA_HOSTS"));
        assertTrue(settings.getBoolean("LOG_JSON"));
        assertFalse(settings.getBoolean("STATS_TOTAL"), "an empty variable is false, as in the original's Docker settings");
        assertEquals(0.5, settings.getDouble("SLEEP_TIME"));
        assertNull(settings.getNullableString("REDIS_PASSWORD"));
    }

    /** REDIS_SENTINEL_PASSWORD keeps empty text ([string, empty kept]): empty says "Sentinels without a password", null "as REDIS_PASSWORD". */
    @Test
    void anEmptySentinelPasswordStaysEmptyInEveryLayer() throws IOException {
        assertNull(Settings.defaults("crawler").getNullableString("REDIS_SENTINEL_PASSWORD"));
        Path quoted = write("REDIS_SENTINEL_PASSWORD: \"\"\nREDIS_PASSWORD: \"\"\n");
        Settings file = Settings.load("crawler", new SettingsSources(quoted, Map.of(), Map.of()));
        assertEquals("", file.getNullableString("REDIS_SENTINEL_PASSWORD"));
        assertNull(file.getNullableString("REDIS_PASSWORD"), "other strings' empty text is still null");
        assertNull(Settings.load("crawler", new SettingsSources(write("REDIS_SENTINEL_PASSWORD: null\n"), Map.of(), Map.of()))
                .getNullableString("REDIS_SENTINEL_PASSWORD"));
        assertEquals("", Settings.load("crawler", new SettingsSources(null, Map.of("REDIS_SENTINEL_PASSWORD", ""), Map.of()))
                .getNullableString("REDIS_SENTINEL_PASSWORD"));
        assertEquals("", Settings.load("crawler", new SettingsSources(null, Map.of(), Map.of("REDIS_SENTINEL_PASSWORD", "")))
                .getNullableString("REDIS_SENTINEL_PASSWORD"));
    }

    @Test
    void theMisspeltDockerVariableSetsTheSchedulerQueueTimeout() {
        Settings aliased = Settings.load("crawler", new SettingsSources(null, Map.of("SCHEDULER_QUEUE_TIEOUT", "120"), Map.of()));
        assertEquals(120, aliased.getInt("SCHEDULER_QUEUE_TIMEOUT"));
        assertEquals(Layer.ENVIRONMENT, aliased.layerOf("SCHEDULER_QUEUE_TIMEOUT"));

        Settings both = Settings.load("crawler", new SettingsSources(null,
                Map.of("SCHEDULER_QUEUE_TIEOUT", "120", "SCHEDULER_QUEUE_TIMEOUT", "90"), Map.of()));
        assertEquals(90, both.getInt("SCHEDULER_QUEUE_TIMEOUT"), "the real name wins over the alias");
    }

    /** What an entry the user writes for a built-in under another of its names replaces (docs/extending.md). */
    @Test
    void anEntryOfAMapIsTheDefaultsUntilALayerAboveWritesIt() throws IOException {
        Path file = write("PLUGINS: {plugins.stats_handler.StatsHandler: 300}\n");
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(file, Map.of(), Map.of("PLUGINS", "{ActionHandler: null}")));

        assertTrue(settings.isDefaultEntry("PLUGINS", "plugins.action_handler.ActionHandler"));
        assertFalse(settings.isDefaultEntry("PLUGINS", "plugins.stats_handler.StatsHandler"), "written again, at its default rank");
        assertFalse(settings.isDefaultEntry("PLUGINS", "ActionHandler"));
        assertFalse(settings.isDefaultEntry("PLUGINS", "not.an.Entry"));
        Settings launched = settings.withLauncherValues(Map.of("PLUGINS", Map.of("plugins.action_handler.ActionHandler", 200)));
        assertFalse(launched.isDefaultEntry("PLUGINS", "plugins.action_handler.ActionHandler"), "the launcher's map replaces the defaults");
    }

    @Test
    void mapsMergeOneLevelDeepAndKeepNullInnerValues() throws IOException {
        Path file = write("""
                PLUGINS:
                  plugins.stats_handler.StatsHandler: null
                  my.CustomHandler: 500
                KAFKA_CLIENT_PROPERTIES:
                  security.protocol: SSL
                  nested: {a: 1, b: 2}
                """);
        Settings settings = Settings.load("kafka-monitor",
                new SettingsSources(file, Map.of(), Map.of("KAFKA_CLIENT_PROPERTIES", "{nested: {c: 3}}")));

        Map<String, Object> plugins = settings.getMap("PLUGINS");
        assertEquals(100, plugins.get("plugins.scraper_handler.ScraperHandler"));
        assertTrue(plugins.containsKey("plugins.stats_handler.StatsHandler"));
        assertNull(plugins.get("plugins.stats_handler.StatsHandler"));
        assertEquals(500, plugins.get("my.CustomHandler"));
        assertEquals(5, plugins.size());

        Map<String, Object> client = settings.getMap("KAFKA_CLIENT_PROPERTIES");
        assertEquals("SSL", client.get("security.protocol"), "the command line merges over the file");
        assertEquals(Map.of("c", 3), client.get("nested"), "the second level is replaced whole");
    }

    @Test
    void anUnknownNameInAnOverrideLayerIsAnError() throws IOException {
        Path file = write("QUEUE_HITZ: 5\n");
        SettingsException inFile = assertThrows(SettingsException.class,
                () -> Settings.load("crawler", new SettingsSources(file, Map.of(), Map.of())));
        assertTrue(inFile.getMessage().contains("QUEUE_HITZ"), inFile.getMessage());
        assertTrue(inFile.getMessage().contains(file.toString()), inFile.getMessage());

        SettingsException onCommandLine = assertThrows(SettingsException.class,
                () -> Settings.load("crawler", new SettingsSources(null, Map.of(), Map.of("NOPE", "1"))));
        assertTrue(onCommandLine.getMessage().contains("Unknown setting NOPE in the command line"), onCommandLine.getMessage());
    }

    /**
     * An unknown name says what it most likely misspells; one no service declares, that an extension's own setting comes
     * from the environment; another service's, whose it is and its name scoped to that service.
     */
    @Test
    void anUnknownNameSaysWhatItMisspellsOrWhereAnExtensionsOwnSettingComesFrom() {
        assertEquals("Unknown setting QUEUE_HITZ in the command line; did you mean QUEUE_HITS?", refused("crawler", "QUEUE_HITZ"));
        assertEquals("Unknown setting NO_QUERY_ALLOW_PAGING in the command line; an extension's own setting is read from the"
                + " environment variable of that name only", refused("crawler", "NO_QUERY_ALLOW_PAGING"));
        assertEquals("Unknown setting STANDALONE_CRAWLERS in the command line; it is a setting of the standalone service (scoped"
                + " to it: standalone.STANDALONE_CRAWLERS)", refused("kafka-monitor", "STANDALONE_CRAWLERS"));
    }

    private static String refused(String service, String name) {
        return assertThrows(SettingsException.class,
                () -> Settings.load(service, new SettingsSources(null, Map.of(), Map.of(name, "1")))).getMessage();
    }

    @Test
    void aValueThatDoesNotConvertNamesTheSettingTheLayerAndTheType() throws IOException {
        SettingsException env = assertThrows(SettingsException.class, () -> Settings.load("crawler",
                new SettingsSources(null, Map.of("QUEUE_HITS", "ten"), Map.of())));
        assertEquals("Setting QUEUE_HITS from the environment: \"ten\" is not an int (expected int)", env.getMessage());

        SettingsException flag = assertThrows(SettingsException.class, () -> Settings.load("kafka-monitor",
                new SettingsSources(null, Map.of(), Map.of("LOG_JSON", "yes"))));
        assertTrue(flag.getMessage().startsWith("Setting LOG_JSON from the command line"), flag.getMessage());
        assertTrue(flag.getMessage().contains("boolean"), flag.getMessage());

        Path file = write("REDIS_PORT: [1, 2]\n");
        SettingsException inFile = assertThrows(SettingsException.class, () -> Settings.load("rest",
                new SettingsSources(file, Map.of(), Map.of())));
        assertTrue(inFile.getMessage().startsWith("Setting REDIS_PORT from the override file " + file), inFile.getMessage());
        assertTrue(inFile.getMessage().endsWith("(expected int)"), inFile.getMessage());

        SettingsException nullValue = assertThrows(SettingsException.class, () -> Settings.load("rest",
                new SettingsSources(write("REDIS_HOST: null\n"), Map.of(), Map.of())));
        assertTrue(nullValue.getMessage().contains("null is not allowed"), nullValue.getMessage());
    }

    /** Settings whose type says secret (passwords, keys, Kafka's client properties) are refused without their value. */
    @Test
    void aSecretThatDoesNotConvertIsNotQuoted() throws IOException {
        SettingsException kafka = assertThrows(SettingsException.class, () -> Settings.load("rest", new SettingsSources(null,
                Map.of(), Map.of("KAFKA_CLIENT_PROPERTIES", "{sasl.jaas.config: 'password=\"hunter2\"', bad"))));
        assertEquals("Setting KAFKA_CLIENT_PROPERTIES from the command line: the value (not shown: it holds a secret) is not valid "
                + "YAML: expected ',' or '}', but got <stream end> (line 1, column 45) (expected map)", kafka.getMessage());

        SettingsException notAMap = assertThrows(SettingsException.class, () -> Settings.load("crawler", new SettingsSources(null,
                Map.of("KAFKA_CLIENT_PROPERTIES", "ssl.truststore.password=hunter2"), Map.of())));
        assertEquals("Setting KAFKA_CLIENT_PROPERTIES from the environment: the value (not shown: it holds a secret) is not a map; "
                + "write it as {key: value, ...} (expected map)", notAMap.getMessage());

        SettingsException keys = assertThrows(SettingsException.class, () -> Settings.load("rest", new SettingsSources(null,
                Map.of(), Map.of("REST_API_KEYS", "[hunter2, other"))));
        assertFalse(keys.getMessage().contains("hunter2"), keys.getMessage());
        assertTrue(keys.getMessage().startsWith("Setting REST_API_KEYS from the command line: the value (not shown"), keys.getMessage());

        Path file = write("REDIS_PASSWORD: {hunter2: 1}\nDOWNLOAD_PROXY: [http://u:hunter2@proxy:3128]\n");
        SettingsException password = assertThrows(SettingsException.class, () -> Settings.load("crawler",
                new SettingsSources(file, Map.of(), Map.of())));
        assertFalse(password.getMessage().contains("hunter2"), password.getMessage());
        assertTrue(password.getMessage().contains("is not a string"), password.getMessage());

        SettingsException sentinel = assertThrows(SettingsException.class, () -> Settings.load("rest", new SettingsSources(
                write("REDIS_SENTINEL_PASSWORD: [hunter2]\n"), Map.of(), Map.of())));
        assertFalse(sentinel.getMessage().contains("hunter2"), sentinel.getMessage());
    }

    @Test
    void aMissingOverrideFileIsCalledMissing() {
        Path missing = dir.resolve("typo.yml");
        SettingsException error = assertThrows(SettingsException.class, () -> Settings.load("rest",
                new SettingsSources(missing, Map.of(), Map.of())));
        assertEquals("Cannot read the override file " + missing + ": no such file", error.getMessage());
    }

    @Test
    void anOverrideFileThatIsNotUtf8IsCalledSo() throws IOException {
        Path latin1 = dir.resolve("latin1.yml");
        Files.write(latin1, "REDIS_HOST: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        SettingsException error = assertThrows(SettingsException.class, () -> Settings.load("rest",
                new SettingsSources(latin1, Map.of(), Map.of())));
        assertEquals("Cannot read the override file " + latin1 + ": not UTF-8 text", error.getMessage());
    }

    @Test
    void anOverrideFileValueItsTagCannotReadIsASettingsError() throws IOException {
        Path file = write("REDIS_PORT: !!int sixty-three-seventy-nine\n");
        SettingsException error = assertThrows(SettingsException.class, () -> Settings.load("rest",
                new SettingsSources(file, Map.of(), Map.of())));
        assertTrue(error.getMessage().startsWith("The override file " + file + " is not valid YAML"), error.getMessage());
    }

    @Test
    void anOverrideFileThatIsNotValidYamlIsToldWhereWithoutQuotingItsLines() throws IOException {
        Path file = write("REDIS_HOST: redis\nREDIS_PASSWORD: s3cret-one\nREDIS_PASSWORD: s3cret-two\n");
        SettingsException error = assertThrows(SettingsException.class, () -> Settings.load("rest",
                new SettingsSources(file, Map.of(), Map.of())));
        assertEquals("The override file " + file + " is not valid YAML: found duplicate key REDIS_PASSWORD (line 3, column 1)",
                error.getMessage());
    }

    @Test
    void textThatYaml11ReadsAsSomethingElseIsKeptAsWritten() throws IOException {
        Settings crawler = Settings.load("crawler", new SettingsSources(
                write("REDIS_PASSWORD: 0123\nZOOKEEPER_ID: 01\nPUBLIC_IP: 1:20\nREDIS_PORT: 6380\nROBOTSTXT_OBEY: false\n"), Map.of(),
                Map.of()));
        assertEquals("0123", crawler.getString("REDIS_PASSWORD"), "not YAML 1.1's octal 83");
        assertEquals("01", crawler.getString("ZOOKEEPER_ID"));
        assertEquals("1:20", crawler.getString("PUBLIC_IP"), "not YAML 1.1's sexagesimal 80");
        assertEquals(6380, crawler.getInt("REDIS_PORT"), "decimal numbers and booleans as ever");
        assertFalse(crawler.getBoolean("ROBOTSTXT_OBEY"));

        Settings rest = Settings.load("rest", new SettingsSources(write("REST_API_KEYS: [0123456, 1_000]\n"), Map.of(),
                Map.of("KAFKA_CLIENT_PROPERTIES", "{client.id: 2024-01-01}")));
        assertEquals(List.of("0123456", "1_000"), rest.getStringList("REST_API_KEYS"));
        assertEquals("2024-01-01", rest.getMap("KAFKA_CLIENT_PROPERTIES").get("client.id"), "a date stays text");
    }

    @Test
    void timeoutsTakeFractionsOfASecondAsScrapyAndRedisPyDo() {
        Settings crawler = Settings.load("crawler", new SettingsSources(null, Map.of("REDIS_SOCKET_TIMEOUT", "0.5"),
                Map.of("DOWNLOAD_TIMEOUT", "2.5", "QUEUE_WINDOW", "1.5")));
        assertEquals(Duration.ofMillis(2_500), crawler.getSeconds("DOWNLOAD_TIMEOUT"));
        assertEquals(Duration.ofMillis(500), crawler.getSeconds("REDIS_SOCKET_TIMEOUT"));
        assertEquals(1.5, crawler.getDouble("QUEUE_WINDOW"));
    }

    /** YAML that reads as a number or boolean in another form than Java writes it back is kept as written. */
    @Test
    void textThatLooksLikeANumberIsKeptAsWritten() throws IOException {
        Settings rest = Settings.load("rest", new SettingsSources(write("""
                REDIS_PASSWORD: 1.50
                REST_API_KEYS: [2e10, +7, TRUE, 12]
                KAFKA_CLIENT_PROPERTIES: {ssl.key.password: 1.50, retries: 3, enable.idempotence: true}
                REDIS_SOCKET_TIMEOUT: 2.50
                """), Map.of(), Map.of()));
        assertEquals("1.50", rest.getString("REDIS_PASSWORD"));
        assertEquals(List.of("2e10", "+7", "TRUE", "12"), rest.getStringList("REST_API_KEYS"));
        assertEquals(Map.of("ssl.key.password", "1.50", "retries", 3, "enable.idempotence", true), rest.getMap("KAFKA_CLIENT_PROPERTIES"));
        assertEquals(Duration.ofMillis(2500), rest.getSeconds("REDIS_SOCKET_TIMEOUT"), "a number setting reads the text as ever");
    }

    /** A value its explicit tag cannot read, or an unquoted password YAML reads as an alias, is refused without quoting it. */
    @Test
    void aValueYamlCannotReadIsRefusedWithoutQuotingIt() throws IOException {
        for (String line : List.of("REDIS_PASSWORD: !!int hunter2", "REDIS_PASSWORD: !!str [hunter2]", "REDIS_PASSWORD: *hunter2",
                "REDIS_PASSWORD: !hunter2", "REDIS_PASSWORD: !!timestamp hunter2")) {
            SettingsException refused = assertThrows(SettingsException.class, () -> Settings.load("rest",
                    new SettingsSources(write(line + "\n"), Map.of(), Map.of())), line);
            assertTrue(refused.getMessage().contains("(line 1, column 17)") && !refused.getMessage().contains("hunter2"),
                    refused.getMessage());
        }
        SettingsException inText = assertThrows(SettingsException.class, () -> Settings.load("rest", new SettingsSources(null,
                Map.of(), Map.of("REST_API_KEYS", "[k1, !!int hunter2]"))));
        assertFalse(inText.getMessage().contains("hunter2"), inText.getMessage());
    }

    /** The original read any text but true and 1 as false: DOWNLOAD_FORBID_PRIVATE_ADDRESSES=yes turned the check off. */
    @Test
    void aBooleanThatIsNeitherTrueNorFalseIsRefusedFromTheEnvironmentToo() {
        for (String text : List.of("yes", "on", "ture")) {
            SettingsException refused = assertThrows(SettingsException.class, () -> Settings.load("crawler",
                    new SettingsSources(null, Map.of("DOWNLOAD_FORBID_PRIVATE_ADDRESSES", text), Map.of())), text);
            assertTrue(refused.getMessage().contains("is not a boolean; use true, false, 1 or 0"), refused.getMessage());
        }
    }

    @Test
    void ipv6AddressesAreAListWithoutBrackets() {
        Settings settings = Settings.load("kafka-monitor",
                new SettingsSources(null, Map.of("KAFKA_HOSTS", "[::1]:9092,[::2]:9092"), Map.of()));
        assertEquals(List.of("[::1]:9092", "[::2]:9092"), settings.getStringList("KAFKA_HOSTS"));
        assertEquals(List.of("[::1]", "[::2]"), Settings.load("kafka-monitor",
                new SettingsSources(null, Map.of("KAFKA_HOSTS", "[::1],[::2]"), Map.of())).getStringList("KAFKA_HOSTS"));
    }

    @Test
    void aBooleanInAnOverrideFileMayBeOneOrZeroAsInTheEnvironment() throws IOException {
        assertTrue(Settings.load("rest", new SettingsSources(write("REDIS_TLS: 1\n"), Map.of(), Map.of())).getBoolean("REDIS_TLS"));
        SettingsException two = assertThrows(SettingsException.class, () -> Settings.load("rest",
                new SettingsSources(write("REDIS_TLS: 2\n"), Map.of(), Map.of())));
        assertTrue(two.getMessage().endsWith("2 is not a boolean; use true, false, 1 or 0 (expected boolean)"), two.getMessage());
    }

    @Test
    void aNumberOfSecondsLongerThanADurationHoldsIsRefused() throws IOException {
        Settings settings = Settings.load("rest", new SettingsSources(write("REDIS_SOCKET_TIMEOUT: 1e10\n"), Map.of(), Map.of()));
        SettingsException refused = assertThrows(SettingsException.class, () -> settings.getSeconds("REDIS_SOCKET_TIMEOUT"));
        assertTrue(refused.getMessage().contains("1.0E10 seconds, more than any wait can be"), refused.getMessage());
    }

    @Test
    void aNumberIsWrittenAsPythonWritesOne() {
        for (String text : List.of("10d", "10f", "0x1p4")) {
            SettingsException flag = assertThrows(SettingsException.class, () -> Settings.load("kafka-monitor",
                    new SettingsSources(null, Map.of(), Map.of("SLEEP_TIME", text))), text);
            assertEquals("Setting SLEEP_TIME from the command line: \"" + text + "\" is not a double (expected double)", flag.getMessage());
        }
        assertEquals(2.5, Settings.load("kafka-monitor", new SettingsSources(null, Map.of("SLEEP_TIME", " +2.5 "), Map.of()))
                .getDouble("SLEEP_TIME"));
    }

    @Test
    void aNumberOfSecondsMustBeFinite() throws IOException {
        for (String text : List.of("NaN", "Infinity", "-Infinity", "1e999")) {
            SettingsException flag = assertThrows(SettingsException.class, () -> Settings.load("kafka-monitor",
                    new SettingsSources(null, Map.of(), Map.of("SLEEP_TIME", text))), text);
            assertEquals("Setting SLEEP_TIME from the command line: \"" + text + "\" is not a finite number (expected double)",
                    flag.getMessage());
        }
        SettingsException inFile = assertThrows(SettingsException.class, () -> Settings.load("kafka-monitor",
                new SettingsSources(write("SLEEP_TIME: 1e999\n"), Map.of(), Map.of())));
        assertTrue(inFile.getMessage().contains("is not a finite number"), inFile.getMessage());
    }

    @Test
    void textInAnOverrideFileIsConvertedLikeTheOriginalsStringPort() throws IOException {
        Settings settings = Settings.load("crawler", new SettingsSources(
                write("REDIS_PORT: '6380'\nKAFKA_HOSTS: 'a:1,b:2'\nGLOBAL_PAGE_PER_DOMAIN_LIMIT: 50\n"), Map.of(), Map.of()));
        assertEquals(6380, settings.getInt("REDIS_PORT"));
        assertEquals(List.of("a:1", "b:2"), settings.getStringList("KAFKA_HOSTS"));
        assertEquals(50, settings.getNullableInt("GLOBAL_PAGE_PER_DOMAIN_LIMIT"));
    }

    @Test
    void aGroupKnowsEveryNameAnyOfItsServicesDeclares() throws IOException {
        Path file = write("QUEUE_HITS: 20\nKAFKA_GROUP: mine\nSTANDALONE_REDIS_PORT: 0\n");
        Map<String, String> sets = new LinkedHashMap<>();
        sets.put("ZOOKEEPER_HOSTS", "zk:2181");
        SettingsGroup group = SettingsGroup.load(SettingsSchema.SERVICES, new SettingsSources(file, Map.of(), sets));

        assertEquals(20, group.service("crawler").getInt("QUEUE_HITS"));
        assertEquals("mine", group.service("kafka-monitor").getString("KAFKA_GROUP"));
        assertFalse(group.service("kafka-monitor").has("QUEUE_HITS"));
        assertTrue(group.isUserSet("ZOOKEEPER_HOSTS"));
        assertFalse(group.isUserSet("REDIS_HOST"));

        SettingsGroup pointed = group.withLauncherValues(Map.of("REDIS_PORT", 7777, "KAFKA_HOSTS", List.of("127.0.0.1:1")));
        assertEquals(7777, pointed.service("rest").getInt("REDIS_PORT"));
        assertEquals(Layer.LAUNCHER, pointed.service("rest").layerOf("REDIS_PORT"));
        assertFalse(pointed.isUserSet("REDIS_PORT"));
        assertFalse(pointed.service("standalone").has("REDIS_PORT"));
    }

    @Test
    void aNameScopedToAServiceSetsItForThatServiceAloneAndWinsOverTheUnscopedOneOfItsLayer() throws IOException {
        Path file = write("PLUGINS: {plugins.stats_handler.StatsHandler: null}\n"
                + "kafka-monitor.PLUGINS: {com.example.Handler: 500}\nredis-monitor.RETRY_FAILURES_MAX: 7\n");
        Map<String, String> sets = new LinkedHashMap<>();
        sets.put("redis-monitor.PLUGINS", "{com.example.JobsFactory: 600}");
        sets.put("RETRY_FAILURES_MAX", "2");
        SettingsGroup group = SettingsGroup.load(SettingsSchema.SERVICES, new SettingsSources(file, Map.of(), sets));

        Map<String, Object> kafkaMonitor = group.service("kafka-monitor").getMap("PLUGINS");
        assertEquals(500, kafkaMonitor.get("com.example.Handler"));
        assertTrue(kafkaMonitor.containsKey("plugins.stats_handler.StatsHandler") && kafkaMonitor.get("plugins.stats_handler.StatsHandler") == null,
                "the unscoped entry applies too: " + kafkaMonitor);
        assertFalse(kafkaMonitor.containsKey("com.example.JobsFactory"), kafkaMonitor.toString());
        Map<String, Object> redisMonitor = group.service("redis-monitor").getMap("PLUGINS");
        assertEquals(600, redisMonitor.get("com.example.JobsFactory"));
        assertFalse(redisMonitor.containsKey("com.example.Handler"), redisMonitor.toString());
        assertEquals(Layer.COMMAND_LINE, group.service("redis-monitor").layerOf("PLUGINS"));
        assertEquals(2, group.service("redis-monitor").getInt("RETRY_FAILURES_MAX"), "the command line beats the file's scoped name");

        Settings alone = Settings.load("kafka-monitor", new SettingsSources(file, Map.of(), Map.of()));
        assertEquals(500, alone.getMap("PLUGINS").get("com.example.Handler"), "a service run alone reads its scoped names");

        SettingsException noSuchService = assertThrows(SettingsException.class, () -> SettingsGroup.load(SettingsSchema.SERVICES,
                new SettingsSources(null, Map.of(), Map.of("kafka-monitr.PLUGINS", "{a: 1}"))));
        assertEquals("Unknown setting kafka-monitr.PLUGINS in the command line: kafka-monitr is not a service; "
                + "the services are kafka-monitor, redis-monitor, crawler, rest, standalone", noSuchService.getMessage());
        SettingsException notDeclared = assertThrows(SettingsException.class, () -> SettingsGroup.load(SettingsSchema.SERVICES,
                new SettingsSources(null, Map.of(), Map.of("rest.PLUGINS", "{a: 1}"))));
        assertEquals("Unknown setting rest.PLUGINS in the command line: the rest service does not declare PLUGINS", notDeclared.getMessage());
        SettingsException wrongType = assertThrows(SettingsException.class, () -> SettingsGroup.load(SettingsSchema.SERVICES,
                new SettingsSources(null, Map.of(), Map.of("kafka-monitor.PLUGINS", "com.example.Handler"))));
        assertEquals("Setting kafka-monitor.PLUGINS from the command line: \"com.example.Handler\" is not a map; write it as "
                + "{key: value, ...} (expected map)", wrongType.getMessage(), "named as it was set");
        SettingsException wrongTypeInFile = assertThrows(SettingsException.class, () -> SettingsGroup.load(SettingsSchema.SERVICES,
                new SettingsSources(write("redis-monitor.RETRY_FAILURES_MAX: many\n"), Map.of(), Map.of())));
        assertTrue(wrongTypeInFile.getMessage().startsWith("Setting redis-monitor.RETRY_FAILURES_MAX from the override file "),
                wrongTypeInFile.getMessage());
        Settings scoped = SettingsGroup.load(SettingsSchema.SERVICES,
                new SettingsSources(null, Map.of(), Map.of("redis-monitor.RETRY_FAILURES_MAX", "-1"))).service("redis-monitor");
        assertEquals("Setting redis-monitor.RETRY_FAILURES_MAX (from the command line) must be at least 0",
                scoped.invalid("RETRY_FAILURES_MAX", "must be at least 0").getMessage(), "a value out of range, named as it was set");
        assertEquals("Setting RETRY_FAILURES_MAX (from the launcher) is wrong", scoped.withLauncherValues(Map.of("RETRY_FAILURES_MAX", 3))
                .invalid("RETRY_FAILURES_MAX", "is wrong").getMessage());
    }

    @Test
    void gettersOfTheWrongTypeArePorgrammingErrors() {
        Settings settings = Settings.defaults("rest");
        assertThrows(IllegalArgumentException.class, () -> settings.getInt("REDIS_HOST"));
        assertThrows(SettingsException.class, () -> settings.getString("NO_SUCH_SETTING"));
        assertThrows(SettingsException.class, () -> settings.getString("REDIS_PASSWORD"));
        assertEquals(10.0, settings.getDouble("REDIS_SOCKET_TIMEOUT"), "an int widens to a double");
    }

    private Path write(String yaml) throws IOException {
        Path file = Files.createTempFile(dir, "local", ".yml");
        Files.writeString(file, yaml);
        return file;
    }
}
