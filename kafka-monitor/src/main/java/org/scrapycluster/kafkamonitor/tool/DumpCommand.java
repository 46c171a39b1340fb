package org.scrapycluster.kafkamonitor.tool;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.scrapycluster.common.cli.ClusterCommand;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.logging.Logging;
import org.scrapycluster.common.service.ShutdownSignal;
import org.scrapycluster.common.settings.Settings;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code scrapy-cluster dump <topic>} and {@code dump list}, the original's {@code kafkadump.py}
 * (docs/compatibility.md §2.8): prints the messages of a topic, one per line (or indented), from the
 * latest offset or from the beginning, in a consumer group or in none, until Ctrl-C or a count is
 * reached. Messages go to standard output; a progress line every few seconds (and a line when Kafka stops answering,
 * and when it answers again: {@link KafkaAnswers}), and on exit the last
 * message and a summary ({@code Num Records}, {@code Total MBs} and {@code kb per message}, counted
 * from the messages' bytes), go to standard error. Once standard output cannot be written (its reader
 * gone) it stops with status 1. It never creates a topic: of one that does not exist yet it says so, and
 * waits until it does (docs/api.md).
 */
@Command(name = "dump", mixinStandardHelpOptions = true, subcommands = TopicList.class,
        description = {"Print the messages of a Kafka topic (Ctrl-C to stop), or list the topics with 'dump list'."})
public final class DumpCommand implements ClusterCommand, Callable<Integer> {

    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);
    private static final Duration TOPIC_RECHECK = Duration.ofSeconds(1);
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(10);
    private static final Duration COMMIT_WAIT = Duration.ofSeconds(10);

    /** How long Kafka has to answer, with the topic's partitions, before dump gives up on it. */
    private final Duration kafkaWait;

    @Mixin
    SettingsOptions options;

    @Parameters(arity = "0..1", paramLabel = "TOPIC", description = "The topic to dump.")
    String topicParameter;

    @Option(names = {"-t", "--topic"}, paramLabel = "TOPIC", description = "The topic to dump (as the original's -t).")
    String topicOption;

    @Option(names = {"-b", "--from-beginning"}, description = "Start at the beginning of the topic (or of the group's offsets) instead of the end.")
    boolean fromBeginning;

    @Option(names = {"-c", "--consumer"}, paramLabel = "GROUP",
            description = "Consume in this consumer group, committing as it goes (with -n, exactly the messages printed); none by default.")
    String group;

    @Option(names = {"-p", "--pretty"}, description = "Indent JSON messages by four spaces.")
    boolean pretty;

    @Option(names = {"-d", "--decode-base64"}, description = "Base64-decode the body, reading it in the message's encoding.")
    boolean decodeBody;

    @ArgGroup(exclusive = true)
    BodyChoice body = new BodyChoice();

    @Option(names = {"-n", "--count"}, paramLabel = "N", description = "Stop after N messages.")
    Long count;

    @Option(names = {"-kh", "--kafka-host"}, paramLabel = "HOST:PORT", description = "Kafka to read from instead of KAFKA_HOSTS.")
    String kafkaHost;

    @Spec
    CommandSpec spec;

    /** The body options, which exclude each other. */
    static final class BodyChoice {

        @Option(names = {"-nb", "--no-body"}, description = "Leave out the body of each message.")
        boolean noBody;

        @Option(names = {"-jb", "--just-body"}, description = "Print only the body of each message.")
        boolean justBody;
    }

    public DumpCommand() {
        this(Duration.ofSeconds(30));
    }

    /** A dump that gives Kafka {@code kafkaWait} to answer: for the tests of a Kafka that never does. */
    DumpCommand(Duration kafkaWait) {
        this.kafkaWait = kafkaWait;
    }

    @Override
    public Integer call() {
        String topic = topic();
        if (count != null && count < 1) {
            throw new ParameterException(spec.commandLine(), "--count must be at least 1");
        }
        if (group != null && group.isEmpty()) {
            // Kafka's consumer takes the empty name and fails at its first poll, after the topic is found.
            throw new ParameterException(spec.commandLine(), "--consumer: the group's name is empty; give one, or leave -c out to read in none");
        }
        Settings settings = TopicList.settings(options, kafkaHost, spec);
        Logging.configureTool(settings, "dump");
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        MessageRenderer renderer = new MessageRenderer(pretty, decodeBody,
                body.justBody ? MessageRenderer.Body.ONLY : body.noBody ? MessageRenderer.Body.DROP : MessageRenderer.Body.KEEP);
        String hosts = KafkaClients.bootstrapServers(settings);
        Consumer<byte[], byte[]> consumer;
        try {
            consumer = consumer(settings);
        } catch (KafkaException e) {
            err.println("Cannot make a Kafka consumer for " + hosts + ": " + KafkaFailure.reason(e));
            return 1;
        }
        try (consumer; ShutdownSignal signal = ShutdownSignal.install(SHUTDOWN_GRACE)) {
            Thread stopper = Thread.ofPlatform().daemon().name("dump-stop").start(() -> {
                try {
                    signal.await();
                    consumer.wakeup();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                KafkaAnswers answers = new KafkaAnswers(hosts, PROGRESS_EVERY.toSeconds() + " s");
                return start(consumer, topic, hosts, err) ? dump(consumer, renderer, answers, out, err) : 1;
            } catch (WakeupException e) {
                // Ctrl-C while waiting for the topic: nothing dumped, nothing to sum up.
                err.println("Stopped");
                return 0;
            } finally {
                stopper.interrupt();
            }
        }
    }

    private String topic() {
        if (topicParameter != null && topicOption != null && !topicParameter.equals(topicOption)) {
            throw new ParameterException(spec.commandLine(), "Two topics given: " + topicParameter + " and " + topicOption);
        }
        String topic = topicParameter != null ? topicParameter : topicOption;
        if (topic == null) {
            throw new ParameterException(spec.commandLine(), "Missing topic: dump TOPIC, or dump list");
        }
        return topic;
    }

    private Consumer<byte[], byte[]> consumer(Settings settings) {
        var properties = new KafkaClients(settings).consumerProperties(group);
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromBeginning ? "earliest" : "latest");
        if (commitsPrinted()) {
            // a poll returns more than -n may print, and an automatic commit (or the one closing makes) would take the
            // group past the messages left unprinted: the next dump of the group would never see them
            properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        }
        // A reading tool creates no topic (docs/api.md); by default a consumer asking about an absent topic has it created.
        properties.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        return new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Whether the group's offsets are committed by the dump itself, after the messages printed: in a group with {@code -n}. */
    private boolean commitsPrinted() {
        return group != null && count != null;
    }

    /**
     * Once {@code topic} exists, subscribes (in a group) or assigns every partition (without one); says so once the start
     * offsets are known. False, said why, when Kafka at {@code hosts} does not answer.
     *
     * @throws WakeupException    on Ctrl-C while it waits for the topic
     * @throws ParameterException when Kafka cannot have a topic of that name
     */
    private boolean start(Consumer<byte[], byte[]> consumer, String topic, String hosts, PrintWriter err) {
        FoundTopic found;
        try {
            found = partitionsOnceCreated(consumer, topic, hosts, err);
        } catch (TimeoutException e) {
            err.println("Cannot reach Kafka at " + hosts + ": no answer within " + kafkaWait.toSeconds() + " s");
            return false;
        } catch (InvalidTopicException e) {
            throw new ParameterException(spec.commandLine(), "Not a Kafka topic name: '" + topic
                    + "' (a name has up to 249 ASCII letters, digits, '.', '_' and '-')");
        }
        // a topic created since the dump started holds only messages sent since: all of them are shown
        boolean fromFirst = fromBeginning || found.createdSince();
        String from = fromBeginning ? "the beginning" : found.createdSince() ? "the beginning (it was created since)" : "the latest offset";
        if (group != null) {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                private boolean announced;

                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    // nothing kept per partition
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    if (!announced) {
                        announced = true;
                        if (found.createdSince() && !fromBeginning) {
                            consumer.committed(Set.copyOf(partitions)).forEach((partition, offset) -> {
                                if (offset == null) {
                                    consumer.seekToBeginning(List.of(partition));
                                }
                            });
                        }
                        partitions.forEach(consumer::position);
                        // the group's committed offsets come first: -b or the latest offset only where it has none
                        err.println("Dumping " + topic + " in group " + group + " from where the group left off, or from " + from
                                + " where it has no offset yet (Ctrl-C to stop)");
                        err.flush();
                    }
                }
            });
            return true;
        }
        consumer.assign(found.partitions());
        if (fromFirst) {
            consumer.seekToBeginning(found.partitions());
        } else {
            consumer.seekToEnd(found.partitions());
        }
        found.partitions().forEach(consumer::position);
        err.println("Dumping " + topic + " from " + from + " (Ctrl-C to stop)");
        err.flush();
        return true;
    }

    /**
     * The partitions of the topic to dump, and whether it was created after the dump started.
     *
     * @param partitions   its partitions
     * @param createdSince it did not exist when the dump started
     */
    private record FoundTopic(List<TopicPartition> partitions, boolean createdSince) {
    }

    /**
     * The partitions of {@code topic}. When Kafka has no such topic it says so and waits until one is created (a topic of
     * the cluster is, by its first message), asking again every {@link #TOPIC_RECHECK}.
     *
     * @throws TimeoutException when Kafka does not answer within {@code kafkaWait}
     * @throws WakeupException  on Ctrl-C
     */
    private FoundTopic partitionsOnceCreated(Consumer<?, ?> consumer, String topic, String hosts, PrintWriter err) {
        List<PartitionInfo> partitions = firstPartitions(consumer, topic, hosts, err);
        boolean absent = partitions.isEmpty();
        if (absent) {
            err.println("No topic " + topic + " at " + hosts + " yet: waiting for it (Ctrl-C to stop; 'dump list' lists the topics)");
            err.flush();
        }
        while (partitions.isEmpty()) {
            try {
                Thread.sleep(TOPIC_RECHECK);
            } catch (InterruptedException e) {
                throw new InterruptException(e);
            }
            partitions = consumer.partitionsFor(topic, kafkaWait);
        }
        return new FoundTopic(partitions.stream().map(info -> new TopicPartition(info.topic(), info.partition())).toList(), absent);
    }

    /**
     * The partitions of {@code topic} as Kafka first answers: after {@link KafkaAnswers#patience} without an answer it
     * says that it waits, up to {@code kafkaWait} in all.
     *
     * @throws TimeoutException when Kafka does not answer within {@code kafkaWait}
     */
    private List<PartitionInfo> firstPartitions(Consumer<?, ?> consumer, String topic, String hosts, PrintWriter err) {
        Duration patience = KafkaAnswers.patience(kafkaWait);
        try {
            return consumer.partitionsFor(topic, patience);
        } catch (TimeoutException e) {
            err.println(KafkaAnswers.notYet(hosts, kafkaWait));
            err.flush();
            return consumer.partitionsFor(topic, kafkaWait.minus(patience));
        }
    }

    /**
     * Prints messages until {@code count} or Ctrl-C (0), then sums up what it printed; or until standard output cannot be
     * written any more, its reader gone as after {@code dump ... | head -1} (1), which it says in one line: its sum would
     * count messages its reader never took, and show the last of them.
     */
    private int dump(Consumer<byte[], byte[]> consumer, MessageRenderer renderer, KafkaAnswers answers, PrintWriter out,
            PrintWriter err) {
        Tally tally = new Tally();
        PrintedOffsets printed = new PrintedOffsets();
        try {
            if (!print(consumer, renderer, answers, tally, printed, out, err)) {
                err.println("Stopped: cannot write to standard output (nothing reads it any more)");
                return 1;
            }
        } catch (WakeupException e) {
            err.println("Stopped");
        } finally {
            out.flush();
            // printed into an output that failed, a message may never have reached its reader: the group shows it again
            if (!out.checkError()) {
                if (commitsPrinted()) {
                    printed.commit(consumer, err);
                }
                tally.summarise(err);
            }
        }
        return 0;
    }

    /**
     * Prints messages until {@code count} or an interruption (true), or until standard output cannot be written
     * any more (false).
     */
    private boolean print(Consumer<byte[], byte[]> consumer, MessageRenderer renderer, KafkaAnswers answers, Tally tally,
            PrintedOffsets printed, PrintWriter out, PrintWriter err) {
        long nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
        while (!Thread.currentThread().isInterrupted()) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                String shown = renderer.render(record.value());
                out.println(shown);
                tally.add(record.value(), shown);
                printed.add(record);
                if (count != null && tally.records >= count) {
                    return true;
                }
            }
            if (out.checkError()) {
                return false;
            }
            if (System.nanoTime() >= nextProgress) {
                err.println(tally.progress());
                answers.check(consumer).ifPresent(err::println);
                err.flush();
                nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
            }
        }
        return true;
    }

    /**
     * The offset after the last message printed of each partition: what a dump in a group with {@code -n} commits as it
     * ends (its count reached, or Ctrl-C), so that the group's next dump starts with the first message this one did not
     * print.
     */
    private static final class PrintedOffsets {

        private final Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();

        void add(ConsumerRecord<?, ?> record) {
            next.put(new TopicPartition(record.topic(), record.partition()), new OffsetAndMetadata(record.offset() + 1));
        }

        /** Commits them; a failure (Kafka gone, the partitions handed to another member) is said and not retried. */
        void commit(Consumer<?, ?> consumer, PrintWriter err) {
            if (next.isEmpty()) {
                return;
            }
            try {
                consumer.commitSync(next, COMMIT_WAIT);
            } catch (KafkaException e) {
                err.println("Cannot commit the offsets of the messages printed: " + KafkaFailure.reason(e));
            }
        }
    }

    /** What was dumped: the number of messages, their bytes and the last one shown. */
    private static final class Tally {

        private long records;
        private long bytes;
        private String last;

        void add(byte[] value, String shown) {
            records++;
            bytes += value == null ? 0 : value.length;
            last = shown;
        }

        String progress() {
            return String.format(Locale.ROOT, "... %,d messages, %.2f MB so far", records, bytes / 1e6);
        }

        void summarise(PrintWriter err) {
            if (last != null) {
                err.println("Last item:");
                err.println(last);
            }
            err.println(String.format(Locale.ROOT, "Num Records: %d, Total MBs: %.6f, kb per message: %.3f",
                    records, bytes / 1e6, records == 0 ? 0.0 : bytes / 1e3 / records));
            err.flush();
        }
    }
}
