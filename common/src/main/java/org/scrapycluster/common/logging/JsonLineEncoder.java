package org.scrapycluster.common.logging;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Set;

import com.fasterxml.jackson.core.JsonGenerator;

import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * One JSON object per line, as the original's JSON logs and the ELK dashboards built on them
 * expect (docs/compatibility.md §7.9): {@code message}, {@code level}, {@code timestamp} (UTC,
 * {@code YYYY-MM-DDTHH:MM:SS.ffffffZ}), {@code logger}, then the record's key-value pairs, and
 * {@code exception} with the stack trace when there is one.
 */
final class JsonLineEncoder extends BaseLineEncoder {

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final Set<String> RESERVED = Set.of("message", "level", "timestamp", "logger", "exception");
    private static final byte[] NEWLINE = {'\n'};

    JsonLineEncoder(ServiceLoggerNames names) {
        super(names);
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator json = mapper.getFactory().createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("message", message(event));
            json.writeStringField("level", levelName(event));
            json.writeStringField("timestamp", TIMESTAMP.format(event.getInstant()));
            json.writeStringField("logger", loggerName(event));
            for (var pair : keyValues(event).entrySet()) {
                if (!RESERVED.contains(pair.getKey())) {
                    json.writeFieldName(pair.getKey());
                    json.writeTree(pair.getValue());
                }
            }
            String stackTrace = stackTrace(event);
            if (stackTrace != null) {
                json.writeStringField("exception", stackTrace);
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode a log record", e);
        }
        out.writeBytes(NEWLINE);
        return out.toByteArray();
    }
}
