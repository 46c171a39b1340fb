package org.scrapycluster.common.logging;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;

/**
 * The original's text format, {@code 2024-03-01 10:22:33,123 [kafka-monitor] INFO: message},
 * with the record's key-value pairs appended as {@code  {"appid":"x"}} when there are any and
 * the stack trace on the following lines.
 */
final class TextLineEncoder extends BaseLineEncoder {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

    private final ObjectMapper mapper = new ObjectMapper();
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
                .append(event.getFormattedMessage());
        Map<String, Object> values = keyValues(event);
        if (!values.isEmpty()) {
            line.append(' ').append(asJson(values));
        }
        line.append('\n');
        if (event.getThrowableProxy() != null) {
            line.append(ThrowableProxyUtil.asString(event.getThrowableProxy())).append('\n');
        }
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }

    private String asJson(Map<String, Object> values) {
        try {
            return mapper.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            return values.toString();
        }
    }
}
