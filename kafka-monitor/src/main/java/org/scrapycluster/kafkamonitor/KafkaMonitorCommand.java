package org.scrapycluster.kafkamonitor;

import org.scrapycluster.common.cli.ServiceCommand;
import org.scrapycluster.common.cli.ServiceLauncher;

import picocli.CommandLine.Command;

/** {@code scrapy-cluster kafka-monitor}: runs the Kafka monitor until Ctrl-C or SIGTERM (docs/compatibility.md §2.1, §9). */
@Command(name = "kafka-monitor", mixinStandardHelpOptions = true,
        description = {"Run the Kafka monitor: validate the requests on KAFKA_INCOMING_TOPIC and file them into Redis.",
                "Settings: config/kafka-monitor.yml; see docs/settings.md."})
public final class KafkaMonitorCommand extends ServiceCommand {

    public KafkaMonitorCommand() {
        super(new KafkaMonitorFactory(), ServiceLauncher.SHUTDOWN_GRACE);
    }
}
