package org.scrapycluster.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.junit.SharedStack;

@ExtendWith(SharedStack.class)
class EmbeddedStackTest {

    @Test
    void redisAnswersPingAndStoresValues(EmbeddedStack stack) throws IOException {
        assertEquals("+PONG", redis(stack.redisPort(), "PING"));
        assertEquals("+OK", redis(stack.redisPort(), "SET", "embedded:test", "42"));
        assertEquals("$2", redis(stack.redisPort(), "GET", "embedded:test"));
    }

    @Test
    void kafkaCarriesARecordFromProducerToConsumer(EmbeddedStack stack) {
        String topic = "embedded.roundtrip";
        try (var producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", stack.kafkaBootstrap()),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "hello")).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        try (var consumer = new KafkaConsumer<>(Map.<String, Object>of("bootstrap.servers", stack.kafkaBootstrap(),
                "group.id", "embedded-test", "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (System.nanoTime() < deadline) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                if (!records.isEmpty()) {
                    assertEquals("hello", records.iterator().next().value());
                    return;
                }
            }
        }
        throw new AssertionError("the record never came back");
    }

    @Test
    void zookeeperKeepsANode(EmbeddedStack stack) throws Exception {
        ZooKeeper zk = ZooKeeperClients.connected(stack.zookeeperConnect());
        try {
            zk.create("/embedded-test", "yaml".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            assertEquals("yaml", new String(zk.getData("/embedded-test", false, null), StandardCharsets.UTF_8));
        } finally {
            zk.close();
        }
    }

    @Test
    void aPrivateRedisStopsRestartsAndLeavesNothingBehind() throws IOException {
        DataDirectory dir = DataDirectory.temporary("redis-test-");
        Path path = dir.path();
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, dir)) {
            redis.stop();
            assertTrue(refused(redis.port()));
            redis.restart();
            assertEquals("+PONG", redis(redis.port(), "PING"));
        }
        assertFalse(Files.exists(path));
    }

    @Test
    void aPrivateZooKeeperStopsAndRestartsOnItsPort() throws Exception {
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(0, DataDirectory.temporary("zk-test-"))) {
            zookeeper.stop();
            assertTrue(refused(zookeeper.port()));
            zookeeper.restart();
            assertFalse(refused(zookeeper.port()));
        }
    }

    @Test
    void zookeeperAnswersTheFourLetterWordsOfThePythonServices(EmbeddedStack stack) throws IOException {
        int port = stack.zookeeper().orElseThrow().port();
        assertEquals("imok", fourLetterWord(port, "ruok"));
        assertTrue(fourLetterWord(port, "envi").contains("zookeeper.version="));
        assertTrue(fourLetterWord(port, "stat").contains("Mode: standalone"));
        assertTrue(fourLetterWord(port, "srvr").contains("Zookeeper version:"));
        assertTrue(fourLetterWord(port, "conf").contains("clientPort="));
    }

    /** Sends a ZooKeeper four-letter word and returns the whole answer, as the Python crawler's ping does. */
    private static String fourLetterWord(int port, String word) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(word.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static boolean refused(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** Sends one command in RESP and returns the first line of the answer. */
    private static String redis(int port, String... command) throws IOException {
        StringBuilder request = new StringBuilder("*").append(command.length).append("\r\n");
        for (String part : command) {
            request.append('$').append(part.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(part).append("\r\n");
        }
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != -1 && c != '\r'; c = in.read()) {
                line.append((char) c);
            }
            return line.toString();
        }
    }
}
