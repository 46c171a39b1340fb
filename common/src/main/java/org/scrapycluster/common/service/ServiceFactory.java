package org.scrapycluster.common.service;

import org.scrapycluster.common.metrics.MetricsServer;
import org.scrapycluster.common.settings.IneffectiveSettings;
import org.scrapycluster.common.settings.Settings;

/**
 * Builds a service from its context. Service modules list their factory in
 * {@code META-INF/services/org.scrapycluster.common.service.ServiceFactory}; standalone finds
 * them there and runs each (the crawler as many times as asked).
 */
public interface ServiceFactory {

    /** The service's name, as its settings file is named. */
    String name();

    /**
     * Refuses the settings a service could not start with, as {@link #create} and {@link Service#start} would, without
     * connecting to anything or starting a thread: a value out of its range, a plugin class that cannot be found or
     * set up. {@code standalone --check} asks every service.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting and where its value came from
     */
    void check(Settings settings);

    /**
     * What every start and every {@code --check} asks before anything else: {@code factory}'s {@link #check} of
     * {@code settings}, the address of the metrics endpoint the service's host starts ({@link MetricsServer#address}),
     * then a WARN naming the settings the user gave that do nothing here ({@link IneffectiveSettings}).
     *
     * @throws org.scrapycluster.common.settings.SettingsException as {@link #check} and {@link MetricsServer#address} do
     */
    static void vet(ServiceFactory factory, Settings settings) {
        factory.check(settings);
        MetricsServer.address(settings);
        IneffectiveSettings.warn(settings);
    }

    /** A new, not yet started instance. */
    Service create(ServiceContext context);
}
