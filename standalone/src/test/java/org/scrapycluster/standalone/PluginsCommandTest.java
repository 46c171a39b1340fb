package org.scrapycluster.standalone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.embedded.plugin.PluginJar;

import picocli.CommandLine;

/** {@code scrapy-cluster plugins}: the folders, the built-ins of every kind and a folder's spider with its jar and version. */
class PluginsCommandTest {

    @Test
    void listsTheBuiltInsAndWhatAFolderHolds(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        PluginJar.named("shop-spider")
                .source("com.example.ShopSpider", """
                        package com.example;
                        import org.scrapycluster.api.*;
                        public final class ShopSpider implements Spider {
                            public String name() { return "shop"; }
                            public SpiderOutput parse(Page page) { return SpiderOutput.publish(); }
                        }
                        """)
                .service("org.scrapycluster.api.Spider", "com.example.ShopSpider")
                .writeTo(folder, "2.5.0");
        StringWriter out = new StringWriter();
        CommandLine commandLine = ScrapyCluster.commandLine();
        commandLine.setOut(new PrintWriter(out, true));

        assertEquals(0, commandLine.execute("plugins", "--set", "PLUGIN_DIRS=" + folder));

        List<String> lines = out.toString().lines().toList();
        assertTrue(lines.contains("  " + folder + " (1 jar)"), out.toString());
        assertTrue(lines.stream().anyMatch(Pattern.compile("spider +shop +shop-spider\\.jar +2\\.5\\.0").asMatchPredicate()), out.toString());
        for (String builtIn : List.of("spider +link ", "spider +wandering ", "item pipeline +kafka ", "item pipeline +logging ",
                "kafka monitor plugin +ScraperHandler ", "redis monitor plugin +plugins\\.info_monitor\\.InfoMonitor ")) {
            assertTrue(lines.stream().anyMatch(Pattern.compile(builtIn + ".*").asMatchPredicate()), builtIn + " in\n" + out);
        }
    }

    @Test
    void takesASettingOnlyOneOfTheServicesDeclares(@TempDir Path work) throws Exception {
        Path config = Files.writeString(work.resolve("local.yml"), "ITEM_PIPELINES: {logging: 100, kafka: null}\n"
                + "FLASK_PORT: 5400\nSTANDALONE_DATA_DIR: " + work.resolve("data") + "\n"); // standalone's file as it is
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = ScrapyCluster.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));

        assertEquals(0, commandLine.execute("plugins", "--config", config.toString(), "--set", "SPIDER_NAME=wandering",
                "--set", "PLUGINS={plugins.stats_monitor.StatsMonitor: null}"), err.toString());

        assertTrue(out.toString().lines().anyMatch(Pattern.compile("redis monitor plugin +plugins\\.info_monitor\\.InfoMonitor .*")
                .asMatchPredicate()), out.toString());
    }

    @Test
    void stillRefusesASettingNoneOfTheServicesDeclares() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = ScrapyCluster.commandLine();
        commandLine.setOut(new PrintWriter(new StringWriter(), true));
        commandLine.setErr(new PrintWriter(err, true));

        assertEquals(2, commandLine.execute("plugins", "--set", "NO_SUCH_SETTING=1"));
        assertTrue(err.toString().contains("Unknown setting NO_SUCH_SETTING in the command line"), err.toString());
    }
}
