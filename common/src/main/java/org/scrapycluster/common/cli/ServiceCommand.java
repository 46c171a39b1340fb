package org.scrapycluster.common.cli;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.Settings;

import picocli.CommandLine.Mixin;

/**
 * A command that runs one service ({@code scrapy-cluster kafka-monitor}, {@code crawler}, ...): the service's settings
 * from the command line's {@link SettingsOptions}, checked with {@code --check} ({@link CheckOption}), or else the
 * service run until the process is told to stop ({@link ServiceLauncher}). A subclass names its factory and how long
 * its service has to stop, and carries the picocli {@code @Command} annotation.
 */
public abstract class ServiceCommand implements ClusterCommand, Callable<Integer> {

    @Mixin
    SettingsOptions options;

    @Mixin
    CheckOption check;

    private final ServiceFactory factory;
    private final Duration shutdownGrace;

    /**
     * @param factory       makes the service; its {@link ServiceFactory#name() name} names the settings loaded
     * @param shutdownGrace how long the process waits for the service to stop once told to
     */
    protected ServiceCommand(ServiceFactory factory, Duration shutdownGrace) {
        this.factory = factory;
        this.shutdownGrace = shutdownGrace;
    }

    /** The settings the command's own options set (as the crawler's {@code --spider} does); none unless overridden. */
    protected Map<String, String> commandOptions() {
        return Map.of();
    }

    @Override
    public final Integer call() {
        Settings settings = options.load(factory.name(), commandOptions());
        return check.checkOrRun(settings, factory, shutdownGrace);
    }
}
