package org.scrapycluster.common.cli;

import java.io.PrintWriter;
import java.time.Duration;

import org.scrapycluster.common.logging.Logging;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.Settings;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code --check} of a service's command ({@code scrapy-cluster crawler --check --config prod.yml}): the settings
 * checked as a start would check them ({@link ServiceFactory#check}), without starting the service or connecting to a
 * server, for a deployment to try its configuration first.
 */
public final class CheckOption {

    /** What a good check prints, as {@code standalone --check} does. */
    public static final String GOOD = "The settings and options are good";

    @Option(names = "--check", description = "Check the settings as a start would (names, types and values; the plugins' classes),"
            + " say that they are good, and exit without starting or connecting to anything.")
    boolean asked;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /**
     * What the service's command does: with {@code --check}, {@linkplain #run checks} the settings; without, runs the
     * service until the process is told to stop ({@link ServiceLauncher#run(Settings, ServiceFactory, Duration)}).
     *
     * @return the exit status
     * @throws org.scrapycluster.common.settings.SettingsException naming what is wrong (status 2)
     */
    int checkOrRun(Settings settings, ServiceFactory factory, Duration grace) {
        return asked ? run(settings, factory) : ServiceLauncher.run(settings, factory, grace);
    }

    /**
     * Checks {@code settings} for the service {@code factory} makes, logging its warnings and errors only, and says that
     * they are good.
     *
     * @return the exit status, 0
     * @throws org.scrapycluster.common.settings.SettingsException naming what is wrong (status 2)
     */
    private int run(Settings settings, ServiceFactory factory) {
        Logging.configureCheck(settings);
        ServiceFactory.vet(factory, settings);
        PrintWriter out = command.commandLine().getOut();
        out.println(GOOD);
        out.flush();
        return 0;
    }
}
