package org.scrapycluster.kafkamonitor.tool;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.KafkaException;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.kafka.BootstrapServers;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.logging.Logging;
import org.scrapycluster.common.settings.Settings;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/** {@code scrapy-cluster dump list}: prints {@code Topics:} and one {@code - <topic>} line per topic, in name order. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List the topics of the Kafka cluster.")
final class TopicList implements Callable<Integer> {

    /** How long Kafka has to answer before the list gives up on it. */
    private final Duration kafkaWait;

    @Mixin
    SettingsOptions options;

    @Option(names = {"-kh", "--kafka-host"}, paramLabel = "HOST:PORT", description = "Kafka to ask instead of KAFKA_HOSTS.")
    String kafkaHost;

    @Spec
    CommandSpec spec;

    TopicList() {
        this(Duration.ofSeconds(30));
    }

    /** A list that gives Kafka {@code kafkaWait} to answer: for the tests of a Kafka that never does. */
    TopicList(Duration kafkaWait) {
        this.kafkaWait = kafkaWait;
    }

    @Override
    public Integer call() {
        refuseWhatCameBeforeList();
        Settings settings = settings(options, kafkaHost, spec);
        Logging.configureTool(settings, "dump");
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String hosts = KafkaClients.bootstrapServers(settings);
        try (Admin admin = new KafkaClients(settings).admin()) {
            var names = admin.listTopics(new ListTopicsOptions().timeoutMs((int) kafkaWait.toMillis())).names();
            Duration patience = KafkaAnswers.patience(kafkaWait);
            try {
                names.get(patience.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                err.println(KafkaAnswers.notYet(hosts, kafkaWait));
                err.flush();
            }
            Set<String> topics = names.get(kafkaWait.minus(patience).toMillis() + 1_000, TimeUnit.MILLISECONDS);
            out.println("Topics:");
            new TreeSet<>(topics).forEach(name -> out.println("- " + name));
            return 0;
        } catch (ExecutionException | TimeoutException e) {
            // the admin's own timeout ("Timed out waiting for a node assignment") is said as the wait's
            boolean unanswered = !(e instanceof ExecutionException)
                    || e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException;
            err.println("Cannot list the topics of Kafka at " + hosts + ": "
                    + (unanswered ? "no answer within " + kafkaWait.toSeconds() + " s" : e.getCause().getMessage()));
            return 1;
        } catch (KafkaException e) {
            err.println("Cannot list the topics of Kafka at " + hosts + ": " + KafkaFailure.reason(e));
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /**
     * Refuses, as a usage error, the options and topic given to {@code dump} before {@code list}: they are {@code dump}'s,
     * which {@code list} does not see, so {@code dump --set KAFKA_HOSTS=... list} asked the default Kafka (docs/api.md).
     */
    private void refuseWhatCameBeforeList() {
        ParseResult dump = spec.parent() == null ? null : spec.parent().commandLine().getParseResult();
        if (dump == null || dump.matchedArgs().isEmpty()) {
            return;
        }
        String given = dump.matchedArgs().stream()
                .map(arg -> arg instanceof OptionSpec option ? option.longestName() : arg.paramLabel())
                .distinct()
                .collect(Collectors.joining(", "));
        throw new ParameterException(spec.commandLine(), "dump list does not use what comes before 'list' (" + given
                + "); give --config, --set or --kafka-host after it: dump list --set KAFKA_HOSTS=HOST:PORT");
    }

    /**
     * The Kafka monitor's settings, with {@code KAFKA_HOSTS} replaced by {@code kafkaHost} when given.
     *
     * @throws ParameterException (a usage error) when {@code kafkaHost} is no host:port
     */
    static Settings settings(SettingsOptions options, String kafkaHost, CommandSpec spec) {
        Settings settings = options.loadForTool("kafka-monitor");
        if (kafkaHost == null) {
            return settings;
        }
        BootstrapServers.whyNot(kafkaHost).ifPresent(problem -> {
            throw new ParameterException(spec.commandLine(), "--kafka-host: " + problem);
        });
        return settings.withLauncherValues(Map.of("KAFKA_HOSTS", kafkaHost));
    }
}
