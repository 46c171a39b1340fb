package org.scrapycluster.rest;

import java.util.concurrent.Callable;

import org.scrapycluster.common.cli.CheckOption;
import org.scrapycluster.common.cli.ClusterCommand;
import org.scrapycluster.common.cli.ServiceLauncher;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.settings.Settings;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code scrapy-cluster rest}: runs the REST gateway until Ctrl-C or SIGTERM (docs/compatibility.md §6, §9). */
@Command(name = "rest", mixinStandardHelpOptions = true,
        description = {"Run the REST gateway: /feed, /poll, /metrics, /health and the web UI /ui/ on FLASK_HOST:FLASK_PORT.",
                "Settings: config/rest.yml; see docs/settings.md and docs/rest.md."})
public final class RestCommand implements ClusterCommand, Callable<Integer> {

    @Mixin
    SettingsOptions options;

    @Mixin
    CheckOption check;

    @Override
    public Integer call() {
        Settings settings = options.load("rest");
        return check.checkOrRun(settings, new RestFactory(), ServiceLauncher.SHUTDOWN_GRACE);
    }
}
