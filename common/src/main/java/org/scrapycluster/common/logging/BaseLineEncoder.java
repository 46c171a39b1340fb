package org.scrapycluster.common.logging;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.event.KeyValuePair;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.EncoderBase;

/** An encoder writing one line per record, with the logger and level names the original's logs show. */
abstract class BaseLineEncoder extends EncoderBase<ILoggingEvent> {

    private final ServiceLoggerNames names;

    BaseLineEncoder(ServiceLoggerNames names) {
        this.names = names;
    }

    /** The name shown as the record's logger. */
    String loggerName(ILoggingEvent event) {
        return names.nameFor(event.getLoggerName());
    }

    /** The level as the original names it: WARN is WARNING. */
    static String levelName(ILoggingEvent event) {
        return event.getLevel() == Level.WARN ? "WARNING" : event.getLevel().toString();
    }

    /** The record's key-value pairs in the order they were added; a later key wins. */
    static Map<String, Object> keyValues(ILoggingEvent event) {
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        Map<String, Object> values = new LinkedHashMap<>();
        if (pairs != null) {
            for (KeyValuePair pair : pairs) {
                values.put(pair.key, pair.value);
            }
        }
        return values;
    }

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }
}
