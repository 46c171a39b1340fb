package org.scrapycluster.rest;

import org.scrapycluster.common.cli.ServiceCommand;
import org.scrapycluster.common.cli.ServiceLauncher;

import picocli.CommandLine.Command;

/** {@code scrapy-cluster rest}: runs the REST gateway until Ctrl-C or SIGTERM (docs/compatibility.md §6, §9). */
@Command(name = "rest", mixinStandardHelpOptions = true,
        description = {"Run the REST gateway: /feed, /poll, /metrics, /health and the web UI /ui/ on FLASK_HOST:FLASK_PORT.",
                "Settings: config/rest.yml; see docs/settings.md and docs/rest.md."})
public final class RestCommand extends ServiceCommand {

    public RestCommand() {
        super(new RestFactory(), ServiceLauncher.SHUTDOWN_GRACE);
    }
}
