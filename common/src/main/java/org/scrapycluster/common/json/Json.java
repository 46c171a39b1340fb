package org.scrapycluster.common.json;

import java.io.CharArrayReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.scrapycluster.common.bytes.BytePrefix;

/**
 * Reads JSON from outside within {@link JsonLimits}, refusing invalid UTF-8 with the offset of
 * the first bad byte and malformed JSON with what was wrong and where ({@link JsonProblem}), and
 * writes standard JSON (UTF-8, {@code /} not escaped), in insertion order or with the keys of every
 * object sorted (crawl results, docs/compatibility.md §1.2). Thread-safe; build one per service and share it.
 */
public final class Json {

    /** Where Jackson names the source it does not include in a message, around the line and column it gives. */
    private static final Pattern REDACTED_SOURCE = Pattern.compile("\\[Source: REDACTED \\([^)]*\\); (line: \\d+, column: \\d+)]");

    private final long maxDocumentBytes;
    private final ObjectMapper mapper;
    private final ObjectReader reader;
    private final ObjectWriter writer;
    private final ObjectWriter sortedWriter;

    public Json(JsonLimits limits) {
        this.maxDocumentBytes = limits.maxDocumentBytes();
        StreamReadConstraints constraints = StreamReadConstraints.builder()
                .maxNestingDepth(limits.maxDepth())
                .maxStringLength(limits.maxStringLength())
                .maxDocumentLength(limits.maxDocumentBytes())
                .build();
        JsonFactory factory = JsonFactory.builder().streamReadConstraints(constraints).build();
        this.mapper = JsonMapper.builder(factory)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
        this.reader = mapper.reader();
        this.writer = mapper.writer();
        ObjectMapper sorted = JsonMapper.builder(factory)
                .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
                .build();
        this.sortedWriter = sorted.writer().without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);
    }

    /** The most bytes {@link #readTree(byte[])} parses ({@code JSON_MAX_DOCUMENT_BYTES}). */
    public long maxDocumentBytes() {
        return maxDocumentBytes;
    }

    /**
     * Parses one JSON document from UTF-8 bytes; null (a Kafka record without a value) is no document. A UTF-8 byte order
     * mark before it is skipped, as JSON's RFC 8259 allows and Python's {@code json.loads} of bytes does (so the
     * original's Python 3 services and its Flask gateway took such a request; docs/differences.md); offsets in errors
     * still count it.
     */
    public JsonNode readTree(byte[] utf8) throws JsonInputException {
        if (utf8 == null) {
            throw new JsonInputException("no JSON document: the message has no value");
        }
        if (utf8.length > maxDocumentBytes) {
            throw new JsonInputException("JSON document of " + utf8.length + " bytes is larger than the limit of "
                    + maxDocumentBytes + " bytes");
        }
        CharBuffer chars = decodeUtf8(utf8, BytePrefix.UTF_8_MARK.starts(utf8) ? BytePrefix.UTF_8_MARK.length() : 0);
        return parse(new CharArrayReader(chars.array(), 0, chars.limit()));
    }

    /** Parses one JSON document from text. */
    public JsonNode readTree(String text) throws JsonInputException {
        return parse(new StringReader(text));
    }

    /** Standard JSON as UTF-8 bytes, keys in insertion order. */
    public byte[] writeBytes(Object value) {
        try {
            return writer.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON", e);
        }
    }

    /** Standard JSON text, keys in insertion order. */
    public String writeString(Object value) {
        return new String(writeBytes(value), StandardCharsets.UTF_8);
    }

    /** A generator of standard UTF-8 JSON into {@code out}, for a message written field by field. */
    public JsonGenerator generator(OutputStream out) throws IOException {
        return mapper.createGenerator(out, JsonEncoding.UTF8);
    }

    /** Writes {@code value} where {@code generator} stands, with the keys of every object in it sorted. */
    public void writeSorted(JsonGenerator generator, Object value) throws IOException {
        sortedWriter.writeValue(generator, value);
    }

    private JsonNode parse(Reader text) throws JsonInputException {
        JsonNode tree;
        try {
            tree = reader.readTree(text);
        } catch (StreamConstraintsException e) {
            throw new JsonInputException("JSON beyond the limits: " + JsonProblem.describe(withSettingNames(e.getOriginalMessage())), e);
        } catch (JsonProcessingException e) {
            throw new JsonInputException("Invalid JSON: "
                    + JsonProblem.describe(withoutRedactedSource(e.getOriginalMessage()) + where(e.getLocation())), e);
        } catch (IOException e) {
            throw new JsonInputException("Unreadable JSON: " + e.getMessage(), e);
        }
        if (tree == null || tree.isMissingNode()) {
            throw new JsonInputException("Empty JSON document");
        }
        return tree;
    }

    /**
     * Jackson's message without the source it leaves out: {@code [Source: REDACTED (...) disabled); line: 1, column: 1]}
     * becomes {@code line: 1, column: 1}.
     */
    private static String withoutRedactedSource(String message) {
        return REDACTED_SOURCE.matcher(message).replaceAll("$1");
    }

    /** {@code ", at line L, column C"} of {@code location}, or nothing when Jackson does not know it. */
    public static String where(JsonLocation location) {
        return location == null || location.getLineNr() < 1 ? "" : ", at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    /**
     * Jackson's limit message with the setting that sets the limit in place of the method it names
     * ({@code (64, from `StreamReadConstraints.getMaxNestingDepth()`)} becomes {@code (64, JSON_MAX_DEPTH)}).
     */
    private static String withSettingNames(String message) {
        return message.replace("from `StreamReadConstraints.getMaxNestingDepth()`", "JSON_MAX_DEPTH")
                .replace("from `StreamReadConstraints.getMaxStringLength()`", "JSON_MAX_STRING_LENGTH")
                .replace("from `StreamReadConstraints.getMaxDocumentLength()`", "JSON_MAX_DOCUMENT_BYTES");
    }

    /** {@code bytes} from {@code start} as text. */
    private static CharBuffer decodeUtf8(byte[] bytes, int start) throws JsonInputException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, start, bytes.length - start);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw new JsonInputException("Input is not valid UTF-8: bad byte 0x"
                    + String.format("%02x", bytes[in.position()] & 0xff) + " at offset " + in.position());
        }
        return out.flip();
    }
}
