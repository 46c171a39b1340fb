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

    /** The level as the original names it: WARN is WARNING. */
    static String levelName(ILoggingEvent event) {
        return event.getLevel() == Level.WARN ? "WARNING" : event.getLevel().toString();
    }

    /**
     * The record's key-value pairs as JSON, in the order they were added; a later key wins. A value Jackson cannot write
     * (a {@code Duration}, an object without properties) is its {@code toString()}, so one such value leaves the others
     * JSON, escaped like them. A text, JSON text written in place, or a map or list whose JSON is longer than
     * {@link ShownText#MAX_CHARACTERS} is shown cut, as a string.
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
        Object text = value instanceof RawValue raw ? raw.rawValue() : value;
        if (text instanceof CharSequence chars && chars.length() > ShownText.MAX_CHARACTERS) {
            return TextNode.valueOf(ShownText.cut(chars.toString()));
        }
        JsonNode tree;
        try {
            tree = mapper.valueToTree(value);
        } catch (IllegalArgumentException e) {
            return TextNode.valueOf(ShownText.cut(String.valueOf(value)));
        }
        if (!tree.isContainerNode()) {
            return tree;
        }
        // a map or list a caller sent, as a crawl's attrs, is as long as its JSON: written once, escaped as the line is
        String json;
        try {
            json = mapper.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(ShownText.cut(String.valueOf(value)));
        }
        return json.length() > ShownText.MAX_CHARACTERS ? TextNode.valueOf(ShownText.cut(json))
                : mapper.getNodeFactory().rawValueNode(new RawValue(json));
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
