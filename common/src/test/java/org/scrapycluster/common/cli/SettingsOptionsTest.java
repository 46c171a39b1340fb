package org.scrapycluster.common.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.logging.LogConfig;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;

/** One settings file serves {@code standalone} and the client tools; the services still take only their own settings. */
class SettingsOptionsTest {

    @TempDir
    Path files;

    @Test
    void aToolTakesAFileThatAlsoHoldsOtherServicesSettings() throws IOException {
        SettingsOptions options = withFile("KAFKA_HOSTS: [kafka.internal:9092]\nSTANDALONE_CRAWLERS: 2\nREST_API_KEYS: [k1]\n"
                + "SC_LOG_LEVEL: DEBUG\n");
        options.sets.add(new SettingsOptions.Assignment("FLASK_PORT", "6000"));

        Settings tool = options.loadForTool("kafka-monitor");

        assertEquals(List.of("kafka.internal:9092"), tool.getStringList("KAFKA_HOSTS"), "its own settings apply");
        assertEquals("Unknown setting STANDALONE_CRAWLERS in the override file " + options.config + "; it is a setting of the"
                + " standalone service (scoped to it: standalone.STANDALONE_CRAWLERS)",
                assertThrows(SettingsException.class, () -> options.load("kafka-monitor")).getMessage(), "a service stays strict");
    }

    @Test
    void aToolStillRefusesANameNoServiceDeclares() throws IOException {
        SettingsOptions inFile = withFile("STANDALONE_CRAWLERS: 2\nKAFKA_HOSTZ: [kafka.internal:9092]\n");
        assertEquals("Unknown setting KAFKA_HOSTZ in the override file " + inFile.config + "; did you mean KAFKA_HOSTS?",
                assertThrows(SettingsException.class, () -> inFile.loadForTool("redis-monitor")).getMessage());

        SettingsOptions onCommandLine = new SettingsOptions();
        onCommandLine.sets.add(new SettingsOptions.Assignment("ZOOKEEPER_HOST", "zk:2181"));
        assertEquals("Unknown setting ZOOKEEPER_HOST in the command line; did you mean ZOOKEEPER_HOSTS?",
                assertThrows(SettingsException.class, () -> onCommandLine.loadForTool("redis-monitor")).getMessage());
    }

    @Test
    void anotherServicesSettingMustStillHaveItsType() throws IOException {
        SettingsOptions options = withFile("STANDALONE_CRAWLERS: many\n");
        SettingsException e = assertThrows(SettingsException.class, () -> options.loadForTool("kafka-monitor"));
        assertTrue(e.getMessage().startsWith("Setting STANDALONE_CRAWLERS from the override file " + options.config + ": "),
                "refused as standalone refuses it: " + e.getMessage());
    }

    @Test
    void setTakesNameEqualsValueAndTheLastOfANameWins() {
        SettingsOptions options = parse("--set", "KAFKA_HOSTS=a:9092", "--set", "REDIS_PASSWORD=p=q", "--set", "KAFKA_HOSTS=b:9092");
        assertEquals(List.of(new SettingsOptions.Assignment("KAFKA_HOSTS", "a:9092"),
                new SettingsOptions.Assignment("REDIS_PASSWORD", "p=q"), new SettingsOptions.Assignment("KAFKA_HOSTS", "b:9092")),
                options.sets);
        assertEquals(List.of("b:9092"), options.loadForTool("kafka-monitor").getStringList("KAFKA_HOSTS"));
    }

    @Test
    void aCommandsOwnOptionsBeatASetOfTheSameSettingScopedOrNot() {
        String logLevel = LogConfig.prefix(Settings.defaults("crawler")) + "LOG_LEVEL"; // the crawler's is SC_LOG_LEVEL
        SettingsOptions options = parse("--set", "crawler.SPIDER_NAME=link", "--set", "crawler." + logLevel + "=INFO", "-ll", "DEBUG");

        Settings crawler = options.load("crawler", Map.of("SPIDER_NAME", "wandering"));

        assertEquals("wandering", crawler.getString("SPIDER_NAME"), "--spider wandering");
        assertEquals("DEBUG", crawler.getString(logLevel), "-ll DEBUG");
    }

    @Test
    void setWithoutANameBeforeItsEqualsSignIsAUsageErrorNamingTheOption() {
        for (String text : List.of("KAFKA_HOSTS", "=5", " =5")) {
            ParameterException e = assertThrows(ParameterException.class, () -> parse("--set", text));
            assertEquals("Invalid value for option '--set' (NAME=VALUE): '" + text
                    + "' is no NAME=VALUE (--set KAFKA_HOSTS=kafka-1:9092)", e.getMessage());
        }
    }

    private static SettingsOptions parse(String... args) {
        Tool tool = new Tool();
        new CommandLine(tool).parseArgs(args);
        return tool.options;
    }

    @Command(name = "tool")
    static final class Tool {
        @Mixin
        SettingsOptions options;
    }

    private SettingsOptions withFile(String yaml) throws IOException {
        SettingsOptions options = new SettingsOptions();
        options.config = Files.writeString(files.resolve("scrapy-cluster.yml"), yaml);
        return options;
    }
}
