package org.scrapycluster.kafkamonitor.tool;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.kafkamonitor.rejection.RecordText;

/**
 * How {@code dump} shows one message (docs/compatibility.md §2.8): a JSON object as compact JSON, or
 * indented by four spaces with {@code -p}; with {@code -d} its {@code body} base64-decoded and read
 * in the message's {@code encoding} (UTF-8 when it has none); without the body ({@code -nb}), or
 * only the body ({@code -jb}). A message that is not a JSON object is shown as its text.
 *
 * @param pretty     indent
 * @param decodeBody base64-decode the body
 * @param body       what to do with the body
 */
record MessageRenderer(boolean pretty, boolean decodeBody, Body body) {

    /** Reads a body of any length: a page's base64 can pass Jackson's default 20 million characters for a string. */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build()).build());
    private static final ObjectWriter COMPACT = JSON.writer();
    private static final ObjectWriter INDENTED = JSON.writer(new DefaultPrettyPrinter()
            .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(new DefaultIndenter("    ", "\n"))
            .withArrayIndenter(new DefaultIndenter("    ", "\n")));

    /** Which part of a message to show. */
    enum Body {
        /** The whole message. */
        KEEP,
        /** The message without its {@code body}. */
        DROP,
        /** Only the {@code body}. */
        ONLY
    }

    String render(byte[] value) {
        JsonNode message;
        try {
            message = value == null ? null : JSON.readTree(value);
        } catch (java.io.IOException e) {
            message = null;
        }
        if (message == null || !message.isObject()) {
            return RecordText.preview(value, Integer.MAX_VALUE);
        }
        ObjectNode object = (ObjectNode) message;
        if (decodeBody && object.path("body").isTextual()) {
            object.put("body", decoded(object.get("body").asText(), object.path("encoding").asText("utf-8")));
        }
        return switch (body) {
            case ONLY -> {
                JsonNode shown = object.path("body");
                yield shown.isTextual() ? shown.asText() : write(shown);
            }
            case DROP -> {
                object.remove("body");
                yield write(object);
            }
            case KEEP -> write(object);
        };
    }

    private String write(JsonNode node) {
        try {
            return (pretty ? INDENTED : COMPACT).writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a JSON tree", e);
        }
    }

    /** The base64 text decoded in {@code encoding}; text that is not base64 is kept as it is. */
    private static String decoded(String base64, String encoding) {
        byte[] bytes;
        try {
            bytes = Base64.getMimeDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            return base64;
        }
        Charset charset;
        try {
            charset = Charset.forName(encoding);
        } catch (IllegalArgumentException e) {
            charset = StandardCharsets.UTF_8;
        }
        return new String(bytes, charset);
    }
}
