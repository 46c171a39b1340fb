package org.scrapycluster.crawler.middleware;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Retry-After in seconds or as an HTTP date, and how long a domain is paused for it. */
class RetryAfterTest {

    private static final Instant NOW = Instant.parse("2024-03-01T10:00:00Z");

    @Test
    void secondsAndDates() {
        assertEquals(Optional.of(Duration.ofSeconds(120)), RetryAfter.parse(" 120 ", NOW));
        assertEquals(Optional.of(Duration.ofSeconds(90)), RetryAfter.parse("Fri, 01 Mar 2024 10:01:30 GMT", NOW));
        assertEquals(Optional.empty(), RetryAfter.parse("Fri, 01 Mar 2024 09:00:00 GMT", NOW), "a past date asks for no wait");
        assertEquals(Optional.empty(), RetryAfter.parse("Fri, 01 Mar 2024 10:00:00 GMT", NOW), "nor does now");
        assertEquals(Optional.empty(), RetryAfter.parse("0", NOW), "nor does 0");
        assertEquals(Optional.of(Duration.ofMinutes(10)), RetryAfter.parse("Friday, 01-Mar-24 10:10:00 GMT", NOW), "RFC 850");
        assertEquals(Optional.of(Duration.ofMinutes(10)), RetryAfter.parse("Fri Mar  1 10:10:00 2024", NOW), "asctime");
        assertEquals(Optional.of(Duration.ofMinutes(10)), RetryAfter.parse("Mon, 01 Mar 2024 10:10:00 GMT", NOW), "the wrong weekday");
        assertEquals(Optional.empty(), RetryAfter.parse("Fri, 31 Feb 2024 10:10:00 GMT", NOW), "no such day");
        assertEquals(Optional.empty(), RetryAfter.parse("soon", NOW));
        assertEquals(Optional.empty(), RetryAfter.parse(null, NOW));
    }

    @Test
    void pausesFor429AndFor503WithRetryAfterOnlyCapped() {
        BackoffPolicy policy = new BackoffPolicy(true, Duration.ofSeconds(10), Duration.ofSeconds(60));
        assertEquals(Optional.of(Duration.ofSeconds(10)), policy.pauseFor(429, null, NOW));
        assertEquals(Optional.of(Duration.ofSeconds(5)), policy.pauseFor(429, "5", NOW));
        assertEquals(Optional.of(Duration.ofSeconds(60)), policy.pauseFor(503, "3600", NOW));
        assertEquals(Optional.empty(), policy.pauseFor(503, null, NOW));
        assertEquals(Optional.empty(), policy.pauseFor(200, "5", NOW));
        assertEquals(Optional.empty(), new BackoffPolicy(false, Duration.ofSeconds(10), Duration.ofSeconds(60)).pauseFor(429, "5", NOW));
    }

    /** A server that asks for no wait (0, or a date its clock put behind ours) has its status's own rule, not a pause of 0 s. */
    @Test
    void aRetryAfterAskingForNoWaitIsNoRetryAfter() {
        BackoffPolicy policy = new BackoffPolicy(true, Duration.ofSeconds(10), Duration.ofSeconds(60));
        assertEquals(Optional.of(Duration.ofSeconds(10)), policy.pauseFor(429, "0", NOW));
        assertEquals(Optional.of(Duration.ofSeconds(10)), policy.pauseFor(429, "Fri, 01 Mar 2024 09:59:59 GMT", NOW));
        assertEquals(Optional.empty(), policy.pauseFor(503, "0", NOW));
        assertEquals(Optional.empty(), policy.pauseFor(503, "Fri, 01 Mar 2024 09:59:59 GMT", NOW));
    }
}
