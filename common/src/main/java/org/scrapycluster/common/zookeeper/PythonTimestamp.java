package org.scrapycluster.common.zookeeper;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A YAML timestamp of the domain config ({@code since: 2024-01-01}, a key crawlers do not read) as the original Redis
 * monitor holds it between reading and writing the node: a Python {@code date} or naive {@code datetime}, as its PyYAML
 * (3.12) reads one, written back as Python writes it ({@code 2024-01-01}, {@code 2024-01-01 10:00:00}); a time with an
 * offset is moved to UTC and written without it ({@code 2001-12-14t21:59:43.10-05:00} becomes
 * {@code 2001-12-15 02:59:43.100000}, and {@code Z} is dropped).
 *
 * @param text the value as the original writes it
 */
record PythonTimestamp(String text) {

    private static final Pattern TIMESTAMP = Pattern.compile(
            "(?<year>[0-9]{4})-(?<month>[0-9]{1,2})-(?<day>[0-9]{1,2})"
                    + "(?:(?:[Tt]|[ \\t]+)(?<hour>[0-9]{1,2}):(?<minute>[0-9]{2}):(?<second>[0-9]{2})(?:\\.(?<fraction>[0-9]*))?"
                    + "(?:[ \\t]*(?<tz>Z|(?<sign>[-+])(?<tzhour>[0-9]{1,2})(?::(?<tzminute>[0-9]{2}))?))?)?");
    private static final int MAX_YEAR = 9999;

    /**
     * The timestamp {@code value} (a scalar the YAML resolver or a {@code !!timestamp} tag calls one).
     *
     * @throws IllegalArgumentException when it is no date or time Python can hold ({@code 2024-02-30}, hour 25, a time
     *         its offset moves out of the years 1 to 9999), on which the original fails too
     */
    static PythonTimestamp of(String value) {
        Matcher m = TIMESTAMP.matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + value + "' is not a YAML timestamp");
        }
        try {
            LocalDate date = LocalDate.of(number(m, "year"), number(m, "month"), number(m, "day"));
            if (date.getYear() < 1) {
                throw new DateTimeException("year 0 is out of range");
            }
            if (m.group("hour") == null) {
                return new PythonTimestamp(date.toString());
            }
            String fraction = (m.group("fraction") == null ? "" : m.group("fraction")) + "000000";
            int micros = Integer.parseInt(fraction.substring(0, 6));
            LocalDateTime time = date.atTime(number(m, "hour"), number(m, "minute"), number(m, "second"), micros * 1000)
                    .minusMinutes(offsetMinutes(m));
            if (time.getYear() < 1 || time.getYear() > MAX_YEAR) {
                throw new DateTimeException("date value out of range");
            }
            StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%s %02d:%02d:%02d", time.toLocalDate(), time.getHour(),
                    time.getMinute(), time.getSecond()));
            if (micros != 0) {
                text.append(String.format(Locale.ROOT, ".%06d", micros));
            }
            return new PythonTimestamp(text.toString());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("'" + value + "' is not a date Python can read: " + e.getMessage(), e);
        }
    }

    /** The offset from UTC in minutes, east positive; 0 for {@code Z} or none. */
    private static int offsetMinutes(Matcher m) {
        if (m.group("sign") == null) {
            return 0;
        }
        int minutes = number(m, "tzhour") * 60 + (m.group("tzminute") == null ? 0 : number(m, "tzminute"));
        return m.group("sign").equals("-") ? -minutes : minutes;
    }

    private static int number(Matcher m, String group) {
        return Integer.parseInt(m.group(group));
    }
}
