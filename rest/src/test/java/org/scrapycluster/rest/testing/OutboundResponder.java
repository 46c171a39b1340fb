package org.scrapycluster.rest.testing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;

/**
 * Stands in for the Kafka and Redis monitors on the test broker: a thread reads every request the
 * gateway feeds to the incoming topic, keeps it, and answers on the outbound topic when the test
 * said what to answer for its uuid; the test can also publish any message to the outbound topic
 * itself. The gateway must not depend on the Redis monitor, so its tests answer this way.
 */
public final class OutboundResponder implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String outbound;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, String> answers = new ConcurrentHashMap<>();
    private final List<byte[]> requests = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean closed;

    public OutboundResponder(GatewaySettings settings) {
        this.outbound = settings.outboundTopic();
        Properties producing = new Properties();
        producing.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafka());
        producing.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        this.producer = new KafkaProducer<>(producing, new ByteArraySerializer(), new ByteArraySerializer());
        Properties consuming = new Properties();
        consuming.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafka());
        consuming.put(ConsumerConfig.GROUP_ID_CONFIG, GatewaySettings.unique("responder"));
        consuming.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        this.consumer = new KafkaConsumer<>(consuming, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(settings.incomingTopic()));
        this.thread = Thread.ofPlatform().daemon().name("outbound-responder").start(this::run);
    }

    /** Answers the request with {@code uuid}, when it arrives, with {@code answer}. */
    public void answerWith(String uuid, String answer) {
        answers.put(uuid, answer);
    }

    /** Publishes {@code message} to the outbound topic now, and waits for Kafka to have it. */
    public void publish(String message) {
        publish(message.getBytes(StandardCharsets.UTF_8));
    }

    /** Publishes raw bytes to the outbound topic now, and waits for Kafka to have them. */
    public void publish(byte[] message) {
        try {
            producer.send(new ProducerRecord<>(outbound, message)).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish to " + outbound, e);
        }
    }

    /** Waits up to a minute for a fed request whose {@code field} is {@code value}, and returns its exact bytes. */
    public byte[] awaitRequest(String field, String value) {
        return Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> find(field, value), found -> found != null);
    }

    private byte[] find(String field, String value) {
        for (byte[] request : requests) {
            JsonNode parsed = parse(request);
            if (parsed != null && value.equals(parsed.path(field).asText(null))) {
                return request;
            }
        }
        return null;
    }

    private void run() {
        try {
            while (!closed) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    requests.add(record.value());
                    JsonNode request = parse(record.value());
                    String answer = request == null ? null : answers.remove(request.path("uuid").asText(""));
                    if (answer != null) {
                        publish(answer);
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    private static JsonNode parse(byte[] value) {
        try {
            return JSON.readTree(value);
        } catch (Exception e) {
            return null;
        }
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            thread.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5));
    }
}
