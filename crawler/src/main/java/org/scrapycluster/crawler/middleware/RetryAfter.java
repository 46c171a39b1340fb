package org.scrapycluster.crawler.middleware;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads a {@code Retry-After} header (RFC 9110 §10.2.3): a number of seconds, or an HTTP date, which
 * becomes the time left until it. A header that asks for no wait ({@code 0}, or a date not after now: a server whose
 * clock is behind ours) is empty, as one that is unreadable: a pause of nothing would have every retry sent at the
 * throttle's full rate to a server that said it is overwhelmed, so the status's own rule applies instead
 * (docs/throttling.md, "Servers asking for a pause"). A date is read in
 * any of the three forms RFC 9110 §5.6.7 has recipients accept ({@code Sun, 06 Nov 1994 08:49:37 GMT}, the obsolete
 * {@code Sunday, 06-Nov-94 08:49:37 GMT} and {@code Sun Nov  6 08:49:37 1994}), its weekday not checked: a server that
 * names the wrong day still means the date.
 */
public final class RetryAfter {

    /** The forms of a date once its weekday and its zone, always GMT, are taken off. */
    private static final List<DateTimeFormatter> DATES = List.of(
            date(new DateTimeFormatterBuilder().appendPattern("d MMM uuuu HH:mm:ss")),
            // a two-digit year is of 1970 to 2069
            date(new DateTimeFormatterBuilder().appendPattern("d-MMM-").appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
                    .appendPattern(" HH:mm:ss")),
            date(new DateTimeFormatterBuilder().appendPattern("MMM d HH:mm:ss uuuu")));

    private RetryAfter() {
    }

    /** How long the server asks to wait, judged at {@code now}; empty when it asks for no wait or cannot be read. */
    public static Optional<Duration> parse(String header, Instant now) {
        if (header == null) {
            return Optional.empty();
        }
        return asked(header.strip(), now).filter(Duration::isPositive);
    }

    private static Optional<Duration> asked(String value, Instant now) {
        if (!value.isEmpty() && value.chars().allMatch(Character::isDigit)) {
            try {
                return Optional.of(Duration.ofSeconds(Long.parseLong(value)));
            } catch (NumberFormatException tooLong) {
                return Optional.of(Duration.ofSeconds(Long.MAX_VALUE / 1_000_000_000L));
            }
        }
        return httpDate(value).map(until -> Duration.between(now, until));
    }

    private static Optional<Instant> httpDate(String value) {
        String date = value.replaceAll("\\s+", " ");
        int comma = date.indexOf(',');
        date = (comma >= 0 ? date.substring(comma + 1) : date.substring(date.indexOf(' ') + 1)).strip(); // the weekday off
        date = date.replaceFirst("(?i) (GMT|UTC)$", "");
        for (DateTimeFormatter form : DATES) {
            try {
                return Optional.of(LocalDateTime.parse(date, form).toInstant(ZoneOffset.UTC));
            } catch (DateTimeException notThisForm) {
                // the next form
            }
        }
        return Optional.empty();
    }

    private static DateTimeFormatter date(DateTimeFormatterBuilder form) {
        return new DateTimeFormatterBuilder().parseCaseInsensitive().append(form.toFormatter(Locale.ENGLISH)).toFormatter(Locale.ENGLISH)
                .withResolverStyle(ResolverStyle.STRICT);
    }
}
