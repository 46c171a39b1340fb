package org.scrapycluster.kafkamonitor;

import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.intake.KafkaMonitor;

/** Builds the Kafka monitor; {@code standalone} finds it through {@link java.util.ServiceLoader}. */
public final class KafkaMonitorFactory implements ServiceFactory {

    @Override
    public String name() {
        return "kafka-monitor";
    }

    @Override
    public void check(Settings settings) {
        KafkaMonitor.check(settings);
    }

    @Override
    public Service create(ServiceContext context) {
        return new KafkaMonitor(context);
    }
}
