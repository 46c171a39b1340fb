package org.scrapycluster.standalone;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.scrapycluster.api.DownloaderMiddleware;
import org.scrapycluster.api.Extension;
import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.api.LinkFilter;
import org.scrapycluster.api.Spider;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.extension.ExtensionLoader;
import org.scrapycluster.common.extension.FoundExtension;
import org.scrapycluster.common.extension.PluginFolders;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsGroup;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;
import org.scrapycluster.redismonitor.job.JobPluginFactory;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code scrapy-cluster plugins}: the plugin folders searched, and every extension found in the services'
 * class path and in those folders — its kind, name, the jar it comes from and that jar's version.
 */
@Command(name = "plugins", mixinStandardHelpOptions = true,
        description = "List the plugin folders and every spider, item pipeline, link filter, downloader middleware, Kafka and Redis"
                + " monitor plugin found.")
public final class PluginsCommand implements Callable<Integer> {

    @Mixin
    SettingsOptions options;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        // Every service's, as standalone loads them: standalone's own settings file (FLASK_PORT, STANDALONE_DATA_DIR) is taken.
        SettingsGroup settings = options.loadAll();
        Settings crawler = settings.service("crawler");
        Settings kafkaMonitor = settings.service("kafka-monitor");
        Settings redisMonitor = settings.service("redis-monitor");
        List<Path> folders = PluginFolders.folders(crawler);
        out.println(folders.isEmpty() ? "Plugin folders: none" : "Plugin folders:");
        folders.forEach(folder -> out.println("  " + PluginFolders.describe(folder)));
        List<FoundExtension> found = new ArrayList<>();
        found.addAll(found("spider", Spider.class, crawler));
        found.addAll(found("item pipeline", ItemPipeline.class, crawler));
        found.addAll(found("link filter", LinkFilter.class, crawler));
        found.addAll(found("downloader middleware", DownloaderMiddleware.class, crawler));
        found.addAll(found("kafka monitor plugin", KafkaMonitorPlugin.class, kafkaMonitor));
        found.addAll(found("redis monitor plugin", JobPluginFactory.class, redisMonitor));
        String format = "%-22s %-44s %-28s %s%n";
        out.printf(format, "KIND", "NAME", "JAR", "VERSION");
        found.forEach(each -> out.printf(format, each.kind(), each.name(), each.source(), each.version()));
        return 0;
    }

    private static <T extends Extension> List<FoundExtension> found(String kind, Class<T> type, Settings settings) {
        return ExtensionLoader.of(type, kind + "s", settings).available().values().stream()
                .map(extension -> new FoundExtension(kind, extension.name(), extension.getClass())).toList();
    }
}
