package org.scrapycluster.kafkamonitor.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.kafkamonitor.intake.BatchListener;
import org.scrapycluster.kafkamonitor.intake.BatchSummary;

/**
 * A Kafka monitor in a JVM of its own, started from the test class path, so that a test can kill
 * it. Arguments: {@code halt-after-write} or {@code run}, then {@code NAME=VALUE} settings. With
 * {@code halt-after-write} the JVM dies (as by {@code kill -9}) right after its first batch's Redis
 * writes, before the batch's offsets are committed.
 */
public final class MonitorProcess {

    private MonitorProcess() {
    }

    public static void main(String[] args) throws InterruptedException {
        boolean halt = args[0].equals("halt-after-write");
        Map<String, String> values = new java.util.LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            String[] pair = args[i].split("=", 2);
            values.put(pair[0], pair[1]);
        }
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), values));
        BatchListener listener = !halt ? BatchListener.NONE : new BatchListener() {
            @Override
            public void written(BatchSummary batch) {
                System.out.println("WRITTEN " + batch.records());
                System.out.flush();
                Runtime.getRuntime().halt(137);
            }
        };
        RunningMonitor monitor = RunningMonitor.start(settings, listener);
        Runtime.getRuntime().addShutdownHook(new Thread(monitor::close));
        System.out.println("STARTED");
        System.out.flush();
        Thread.currentThread().join();
    }

    /** Starts a JVM running this class with {@code mode} and {@code settings}; its output goes to {@code log}. */
    public static Process start(String mode, Map<String, String> settings, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), MonitorProcess.class.getName(), mode));
        settings.forEach((name, value) -> command.add(name + "=" + value));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
