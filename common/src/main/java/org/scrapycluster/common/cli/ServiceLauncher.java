package org.scrapycluster.common.cli;

import java.time.Duration;

import org.scrapycluster.common.logging.Logging;
import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.service.ServiceHost;
import org.scrapycluster.common.service.ShutdownSignal;
import org.scrapycluster.common.settings.Settings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one service in this process until it is told to stop, as the service subcommands
 * ({@code scrapy-cluster kafka-monitor}, ...) do: logging from the service's settings, the
 * service's {@linkplain ServiceFactory#check check} of its settings, the {@code /metrics} and {@code /health}
 * endpoint where its {@code METRICS_*} settings say, the service itself, then a clean stop on Ctrl-C, SIGTERM or an
 * interrupt of the calling thread.
 */
public final class ServiceLauncher {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceLauncher.class);
    /**
     * How long a stopping service has to finish the work in hand unless its command gives another; orchestrators wait
     * longer.
     */
    public static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(60);

    private ServiceLauncher() {
    }

    /**
     * Runs the service {@code factory} builds with {@code settings} until the process is told to
     * stop; once told, the process exits when {@code grace} has passed, stopped or not.
     *
     * @return the exit status, 0
     * @throws org.scrapycluster.common.settings.SettingsException when a setting cannot be used
     */
    public static int run(Settings settings, ServiceFactory factory, Duration grace) {
        Logging.configure(settings);
        // before anything listens or connects: a setting the service refuses stops it with nothing bound
        ServiceFactory.vet(factory, settings);
        try (ShutdownSignal signal = ShutdownSignal.install(grace)) {
            try (ServiceHost host = ServiceHost.start(settings)) {
                Service service = factory.create(host.context(settings));
                host.run(service);
                LOG.atInfo().addKeyValue("service", service.name())
                        .addKeyValue("metrics", host.metricsAddress().map(Object::toString).orElse("off"))
                        .log("Running " + service.name());
                try {
                    signal.await();
                    LOG.info("Stopping {}", service.name());
                } catch (InterruptedException e) {
                    LOG.info("Stopping {} (interrupted)", service.name());
                }
            }
            // Logged before the signal is closed: once it is, a signalled JVM exits at once.
            LOG.info("Stopped {}", factory.name());
        }
        return 0;
    }
}
