package org.scrapycluster.common.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import javax.net.ssl.SSLHandshakeException;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.slf4j.LoggerFactory;

class KafkaRefusalsTest {

    private static final SslAuthenticationException NO_CERTIFICATE = new SslAuthenticationException(
            "Failed to process post-handshake messages",
            new SSLHandshakeException("(certificate_required) Received fatal alert: certificate_required"));

    @Test
    void aRefusalAmongTheCausesIsToldWithTheCauseThatEndedTheHandshake() {
        assertEquals(Optional.of("Kafka refused the client's credentials: Failed to process post-handshake messages "
                + "((certificate_required) Received fatal alert: certificate_required) "
                + "(KAFKA_CLIENT_PROPERTIES: security.protocol, ssl.*, sasl.*)"),
                KafkaRefusals.of(new KafkaException("poll failed", NO_CERTIFICATE)));
        assertEquals(Optional.of("Kafka refused the client's credentials: Authentication failed: Invalid username or password "
                + "(KAFKA_CLIENT_PROPERTIES: security.protocol, ssl.*, sasl.*)"),
                KafkaRefusals.of(new SaslAuthenticationException("Authentication failed: Invalid username or password")));
        assertEquals(Optional.empty(), KafkaRefusals.of(new TimeoutException("Timed out waiting for a node assignment")));
    }

    @Test
    void aRefusalIsSaidOnceUntilItsReasonChangesOrKafkaTookTheClient() {
        List<ILoggingEvent> events;
        try (CapturedLog log = CapturedLog.start(KafkaRefusalsTest.class, Level.DEBUG)) {
            KafkaRefusals refusals = new KafkaRefusals(LoggerFactory.getLogger(KafkaRefusalsTest.class), "The test's consumer");
            assertTrue(refusals.said(NO_CERTIFICATE));
            assertTrue(refusals.said(NO_CERTIFICATE));
            assertTrue(refusals.said(new SaslAuthenticationException("Invalid username or password")));
            refusals.taken();
            refusals.taken();
            assertTrue(refusals.said(NO_CERTIFICATE));
            assertFalse(refusals.said(new TimeoutException("Timed out")), "not a refusal: the caller's to say");
            events = log.events();
        }
        List<String> said = events.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
                .map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
        assertEquals(4, said.size(), String.valueOf(said));
        assertTrue(said.get(0).startsWith("ERROR The test's consumer is refused: Kafka refused") && said.get(0).endsWith("; retrying"),
                said.get(0));
        assertTrue(said.get(1).contains("Invalid username or password"), said.get(1));
        assertEquals("INFO The test's consumer is taken by Kafka again", said.get(2));
        assertTrue(said.get(3).contains("certificate_required"), said.get(3));
        assertTrue(events.stream().allMatch(e -> e.getThrowableProxy() == null), "no stack trace");
        assertEquals(List.of("The test's consumer is still refused"), events.stream().filter(e -> e.getLevel() == Level.DEBUG)
                .map(e -> e.getFormattedMessage().substring(0, 36)).toList(), "the repeat, at DEBUG");
    }
}
