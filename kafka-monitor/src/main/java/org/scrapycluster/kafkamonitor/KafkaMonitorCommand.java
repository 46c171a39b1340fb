package org.scrapycluster.kafkamonitor;

import java.util.concurrent.Callable;

import org.scrapycluster.common.cli.CheckOption;
import org.scrapycluster.common.cli.ClusterCommand;
import org.scrapycluster.common.cli.ServiceLauncher;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.settings.Settings;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code scrapy-cluster kafka-monitor}: runs the Kafka monitor until Ctrl-C or SIGTERM (docs/compatibility.md §2.1, §9). */
@Command(name = "kafka-monitor", mixinStandardHelpOptions = true,
        description = {"Run the Kafka monitor: validate the requests on KAFKA_INCOMING_TOPIC and file them into Redis.",
                "Settings: config/kafka-monitor.yml; see docs/settings.md."})
public final class KafkaMonitorCommand implements ClusterCommand, Callable<Integer> {

    @Mixin
    SettingsOptions options;

    @Mixin
    CheckOption check;

    @Override
    public Integer call() {
        Settings settings = options.load("kafka-monitor");
        return check.checkOrRun(settings, new KafkaMonitorFactory(), ServiceLauncher.SHUTDOWN_GRACE);
    }
}
