package org.scrapycluster.common.logging;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.event.KeyValuePair;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.util.RawValue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;

/** An encoder writing one line per record, with the logger and level names the original's logs show. */
abstract class BaseLineEncoder extends EncoderBase<ILoggingEvent> {

    /** Writes JSON with the characters that would break a line escaped ({@link LineSafeEscapes}). */
    final ObjectMapper mapper = new ObjectMapper();
    private final ServiceLoggerNames names;

    BaseLineEncoder(ServiceLoggerNames names) {
        this.names = names;
        mapper.getFactory().setCharacterEscapes(new LineSafeEscapes());
    }

    /** The name shown as the record's logger. */
    String loggerName(ILoggingEvent event) {
        return names.nameFor(event.getLoggerName());
    }

    /**
     * The record's message, its URLs' passwords hidden ({@link UrlPasswords}), cut as a long field is ({@link ShownText}): a
     * message that names what a caller sent (a job's key holding a 100 KB domain) is no longer than a field of it.
     */
    static String message(ILoggingEvent event) {
        String message = UrlPasswords.hidden(event.getFormattedMessage());
        return message == null ? null : ShownText.cut(message);
    }

    /** The record's stack trace, its messages' URL passwords hidden; null when it has none. */
    static String stackTrace(ILoggingEvent event) {
        return event.getThrowableProxy() == null ? null : UrlPasswords.hidden(ThrowableProxyUtil.asString(event.getThrowableProxy()));
    }

    /** The level as the original names it: WARN is WARNING. */
    static String levelName(ILoggingEvent event) {
        return event.getLevel() == Level.WARN ? "WARNING" : event.getLevel().toString();
    }

    /**
     * The record's key-value pairs as JSON, in the order they were added; a later key wins. A value Jackson cannot write
     * (a {@code Duration}, an object without properties) is its {@code toString()}, so one such value leaves the others
     * JSON, escaped like them. A text, JSON text written in place, or a map or list whose JSON is longer than
     * {@link ShownText#MAX_CHARACTERS} is shown cut, as a string. A URL's password in a value is hidden
     * ({@link UrlPasswords}).
     */
    Map<String, JsonNode> keyValues(ILoggingEvent event) {
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        Map<String, JsonNode> values = new LinkedHashMap<>();
        if (pairs != null) {
            for (KeyValuePair pair : pairs) {
                values.put(pair.key, toTree(pair.value));
            }
        }
        return values;
    }

    /** {@code values} as one JSON object. */
    ObjectNode asObject(Map<String, JsonNode> values) {
        ObjectNode object = mapper.createObjectNode();
        object.setAll(values);
        return object;
    }

    private JsonNode toTree(Object value) {
        if (value instanceof RawValue raw && raw.rawValue() instanceof CharSequence json) {
            return jsonOrCut(json.toString());
        }
        if (value instanceof CharSequence chars && chars.length() > ShownText.MAX_CHARACTERS) {
            return TextNode.valueOf(ShownText.cut(UrlPasswords.hidden(chars.toString())));
        }
        JsonNode tree;
        try {
            tree = mapper.valueToTree(value);
        } catch (IllegalArgumentException e) {
            return TextNode.valueOf(ShownText.cut(UrlPasswords.hidden(String.valueOf(value))));
        }
        if (tree.isTextual()) {
            String text = tree.textValue();
            String shown = UrlPasswords.hidden(text);
            return shown == text ? tree : TextNode.valueOf(shown);
        }
        if (!tree.isContainerNode()) {
            return tree;
        }
        // a map or list a caller sent, as a crawl's attrs, is as long as its JSON: written once, escaped as the line is
        try {
            return jsonOrCut(mapper.writeValueAsString(tree));
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(ShownText.cut(UrlPasswords.hidden(String.valueOf(value))));
        }
    }

    /** JSON text written in place, its URLs' passwords hidden, or cut as a string when it is too long. */
    private JsonNode jsonOrCut(String json) {
        String shown = UrlPasswords.hidden(json);
        return shown.length() > ShownText.MAX_CHARACTERS ? TextNode.valueOf(ShownText.cut(shown))
                : mapper.getNodeFactory().rawValueNode(new RawValue(shown));
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
