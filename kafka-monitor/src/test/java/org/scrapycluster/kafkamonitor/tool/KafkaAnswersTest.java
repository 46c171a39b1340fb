package org.scrapycluster.kafkamonitor.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.KafkaTopics;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;

/** When a running dump says that Kafka stopped answering, and that it answers again. */
@ExtendWith(SharedStack.class)
class KafkaAnswersTest {

    private final EmbeddedStack stack;

    KafkaAnswersTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void aPeriodWithoutAFetchAnsweredIsKafkaAwayAndTheNextOneAnsweredIsKafkaBack() {
        KafkaAnswers answers = new KafkaAnswers("kafka-1:9092", "5 s");

        assertEquals(Optional.empty(), answers.check(10));
        assertEquals(Optional.empty(), answers.check(20), "answered meanwhile");
        assertEquals(Optional.of("Kafka at kafka-1:9092 has not answered for 5 s; waiting for it (Ctrl-C to stop)"), answers.check(20));
        assertEquals(Optional.empty(), answers.check(20), "said once");
        assertEquals(Optional.of("Kafka at kafka-1:9092 answers again"), answers.check(21));
        assertEquals(Optional.empty(), answers.check(30));
    }

    @Test
    void aConsumerOfAnIdleTopicCountsItsFetchesAnsweredAndANewOneWithoutPartitionsIsNotKafkaAway() {
        String topic = MonitorSettings.unique("answers") + ".idle";
        try (KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap())) {
            kafka.createTopic(topic);
        }
        Properties properties = new Properties();
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            KafkaAnswers answers = new KafkaAnswers(stack.kafkaBootstrap(), "1 s");
            assertEquals(Optional.empty(), answers.check(consumer));
            assertEquals(Optional.empty(), answers.check(consumer), "nothing assigned, nothing fetched: nothing to say");

            consumer.assign(List.of(new TopicPartition(topic, 0)));
            consumer.poll(Duration.ofMillis(1500));
            OptionalLong first = KafkaAnswers.fetchesAnswered(consumer.metrics());
            consumer.poll(Duration.ofMillis(1500));
            OptionalLong second = KafkaAnswers.fetchesAnswered(consumer.metrics());

            assertTrue(first.isPresent() && second.isPresent(), consumer.metrics().keySet().toString());
            assertTrue(second.getAsLong() > first.getAsLong(), "empty fetches are answered too: " + first + ", " + second);
        }
    }
}
