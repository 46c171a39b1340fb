package org.scrapycluster.common.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.read.ListAppender;

class RepeatedMessagesTest {

    private static final Duration PERIOD = Duration.ofSeconds(60);

    private final LoggerContext context = new LoggerContext();
    private final AtomicLong nanos = new AtomicLong();
    private final ListAppender<ILoggingEvent> written = new ListAppender<>();
    private final Logger kafka = context.getLogger("org.apache.kafka.clients.NetworkClient");
    private final Logger zookeeper = context.getLogger("org.apache.zookeeper.ClientCnxn");

    @BeforeEach
    void start() {
        context.setMDCAdapter(new LogbackMDCAdapter());
        written.setContext(context);
        written.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(written);
        context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);
        RepeatedMessages filter = new RepeatedMessages(PERIOD, nanos::get, context.getLogger(RepeatedMessages.class));
        filter.setContext(context);
        filter.start();
        context.addTurboFilter(filter);
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    private void reconnectAttempt(int attempt) {
        kafka.warn("[Producer clientId=producer-1] Connection to node {} ({}) could not be established.", -1, "/127.0.0.1:" + attempt);
        zookeeper.warn("Session 0x0 for server localhost/127.0.0.1:2181, Closing socket connection.", new java.net.ConnectException("refused"));
    }

    private List<String> messages() {
        return written.list.stream().map(event -> event.getLoggerName() + ": " + event.getFormattedMessage()).toList();
    }

    @Test
    void aLibraryWarningRepeatedWithinThePeriodIsWrittenOnceAndTheNextOneSaysHowManyWereLeftOut() {
        for (int second = 0; second < 90; second++) {
            nanos.set(Duration.ofSeconds(second).toNanos());
            reconnectAttempt(second);
        }
        String countLogger = RepeatedMessages.class.getName();
        assertEquals(List.of(
                "org.apache.kafka.clients.NetworkClient: [Producer clientId=producer-1] Connection to node -1 (/127.0.0.1:0) could not be established.",
                "org.apache.zookeeper.ClientCnxn: Session 0x0 for server localhost/127.0.0.1:2181, Closing socket connection.",
                countLogger + ": Left out 59 more of the next message since it was last written",
                "org.apache.kafka.clients.NetworkClient: [Producer clientId=producer-1] Connection to node -1 (/127.0.0.1:60) could not be established.",
                countLogger + ": Left out 59 more of the next message since it was last written",
                "org.apache.zookeeper.ClientCnxn: Session 0x0 for server localhost/127.0.0.1:2181, Closing socket connection."),
                messages());
        assertEquals(Level.WARN, written.list.get(2).getLevel());
        assertEquals("refused", written.list.get(5).getThrowableProxy().getMessage(), "the repeat written keeps its stack trace");
    }

    @Test
    void theServicesOwnMessagesInfoAndOtherPatternsAlwaysPass() {
        Logger own = context.getLogger("org.scrapycluster.crawler.pipeline.KafkaPipeline");
        for (int i = 0; i < 3; i++) {
            own.warn("Kafka cannot take results: {}", i);
            kafka.info("Node {} disconnected.", i);
            kafka.warn("Pattern " + i);
        }
        assertEquals(9, written.list.size(), messages().toString());
    }

    @Test
    void aLoggerSetAboveTheLevelIsNeitherWrittenNorCountedAsLeftOut() {
        kafka.setLevel(Level.ERROR); // as standalone quietens the embedded broker
        for (int second = 0; second < 90; second++) {
            nanos.set(Duration.ofSeconds(second).toNanos());
            kafka.warn("Pattern of a quietened logger");
        }
        assertEquals(List.of(), messages());
    }

    @Test
    void anErrorIsHeldBackApartFromAWarningOfTheSamePattern() {
        kafka.warn("Bootstrap broker {} disconnected", "a");
        kafka.error("Bootstrap broker {} disconnected", "a");
        kafka.error("Bootstrap broker {} disconnected", "a");
        assertEquals(List.of(Level.WARN, Level.ERROR), written.list.stream().map(ILoggingEvent::getLevel).toList());
    }

    @Test
    void thePeriodMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new RepeatedMessages(Duration.ZERO, nanos::get, kafka));
    }
}
