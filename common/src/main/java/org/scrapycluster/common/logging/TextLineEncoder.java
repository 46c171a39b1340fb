package org.scrapycluster.common.logging;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * The original's text format, {@code 2024-03-01 10:22:33,123 [kafka-monitor] INFO: message},
 * with the record's key-value pairs appended as {@code  {"appid":"x"}} when there are any and
 * the stack trace on the following lines. A message is kept on its line: its line breaks and other control
 * characters are written escaped ({@code \n}, {@code \r}, {@code \t}, {@code \u0085}), so that text a caller
 * controls (a decoded URL path with {@code %0a}, a request's field) cannot start a log line of its own; so are the
 * key-value pairs' ({@link LineSafeEscapes}).
 */
final class TextLineEncoder extends BaseLineEncoder {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

    private final ZoneId zone;

    TextLineEncoder(ServiceLoggerNames names, ZoneId zone) {
        super(names);
        this.zone = zone;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(160)
                .append(TIME.format(event.getInstant().atZone(zone)))
                .append(" [").append(loggerName(event)).append("] ")
                .append(levelName(event)).append(": ")
                .append(oneLine(message(event)));
        Map<String, JsonNode> values = keyValues(event);
        if (!values.isEmpty()) {
            line.append(' ').append(asJson(values));
        }
        line.append('\n');
        String stackTrace = stackTrace(event);
        if (stackTrace != null) {
            line.append(stackTrace).append('\n');
        }
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@code message} with its control characters and Unicode line separators escaped. */
    static String oneLine(String message) {
        if (message == null || message.chars().noneMatch(TextLineEncoder::breaksLine)) {
            return message;
        }
        StringBuilder line = new StringBuilder(message.length() + 16);
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            switch (c) {
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> {
                    if (breaksLine(c)) {
                        line.append(String.format("\\u%04x", (int) c));
                    } else {
                        line.append(c);
                    }
                }
            }
        }
        return line.toString();
    }

    private static boolean breaksLine(int c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
    }

    private String asJson(Map<String, JsonNode> values) {
        try {
            return mapper.writeValueAsString(asObject(values));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write a log record's key-value pairs", e);
        }
    }
}
