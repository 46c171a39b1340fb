package org.scrapycluster.crawler.middleware;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Reads a {@code Retry-After} header (RFC 9110 §10.2.3): a number of seconds, or an HTTP date, which
 * becomes the time left until it. A date in the past is zero; anything else unreadable is empty.
 */
public final class RetryAfter {

    private RetryAfter() {
    }

    /** How long the server asks to wait, judged at {@code now}. */
    public static Optional<Duration> parse(String header, Instant now) {
        if (header == null) {
            return Optional.empty();
        }
        String value = header.strip();
        if (!value.isEmpty() && value.chars().allMatch(Character::isDigit)) {
            try {
                return Optional.of(Duration.ofSeconds(Long.parseLong(value)));
            } catch (NumberFormatException tooLong) {
                return Optional.of(Duration.ofSeconds(Long.MAX_VALUE / 1_000_000_000L));
            }
        }
        try {
            Instant until = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration left = Duration.between(now, until);
            return Optional.of(left.isNegative() ? Duration.ZERO : left);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
