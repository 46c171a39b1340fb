package org.scrapycluster.common.json;

import org.scrapycluster.common.settings.Settings;

/**
 * How much JSON a reader accepts: the deepest nesting of objects and arrays, the longest string
 * in characters, and the largest document in bytes. Hostile input beyond them is refused before
 * it can exhaust the stack or the heap.
 */
public record JsonLimits(int maxDepth, int maxStringLength, long maxDocumentBytes) {

    public JsonLimits {
        if (maxDepth < 1 || maxStringLength < 1 || maxDocumentBytes < 1) {
            throw new IllegalArgumentException("JSON limits must be positive: " + maxDepth + ", " + maxStringLength + ", " + maxDocumentBytes);
        }
    }

    /**
     * These limits but the document's size: for documents a source bounds itself and hands over whole, such as the
     * records of a Kafka topic the cluster's services write, which Kafka's own limits size.
     */
    public JsonLimits anySize() {
        return new JsonLimits(maxDepth, maxStringLength, Long.MAX_VALUE);
    }

    /** The limits of {@code JSON_MAX_DEPTH}, {@code JSON_MAX_STRING_LENGTH} and {@code JSON_MAX_DOCUMENT_BYTES}. */
    public static JsonLimits from(Settings settings) {
        int depth = settings.getInt("JSON_MAX_DEPTH");
        int string = settings.getInt("JSON_MAX_STRING_LENGTH");
        long document = settings.getLong("JSON_MAX_DOCUMENT_BYTES");
        for (String name : new String[] {"JSON_MAX_DEPTH", "JSON_MAX_STRING_LENGTH", "JSON_MAX_DOCUMENT_BYTES"}) {
            if (settings.getLong(name) < 1) {
                throw settings.invalid(name, "must be at least 1");
            }
        }
        return new JsonLimits(depth, string, document);
    }
}
