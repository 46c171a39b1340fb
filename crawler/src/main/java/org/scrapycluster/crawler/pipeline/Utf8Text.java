package org.scrapycluster.crawler.pipeline;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;

/**
 * A body that is valid UTF-8, written into JSON straight from its bytes (escaped as JSON requires, never
 * decoded into a Java string): the bulk of a result message, so this is where encoding time goes.
 */
final class Utf8Text implements JsonSerializable {

    private final byte[] bytes;

    private Utf8Text(byte[] bytes) {
        this.bytes = bytes;
    }

    /** {@code bytes} as JSON text when they are valid UTF-8; null when they are not. */
    static Utf8Text ifValid(byte[] bytes) {
        return isValid(bytes) ? new Utf8Text(bytes) : null;
    }

    @Override
    public void serialize(JsonGenerator generator, SerializerProvider serializers) throws IOException {
        generator.writeUTF8String(bytes, 0, bytes.length);
    }

    @Override
    public void serializeWithType(JsonGenerator generator, SerializerProvider serializers, TypeSerializer types) throws IOException {
        serialize(generator, serializers);
    }

    /** Whether {@code bytes} are well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or values past U+10FFFF). */
    static boolean isValid(byte[] bytes) {
        int i = 0;
        while (i < bytes.length) {
            int lead = bytes[i] & 0xFF;
            if (lead < 0x80) {
                i++;
                continue;
            }
            int following;
            int low = 0x80;
            int high = 0xBF;
            if (lead >= 0xC2 && lead <= 0xDF) {
                following = 1;
            } else if (lead >= 0xE0 && lead <= 0xEF) {
                following = 2;
                low = lead == 0xE0 ? 0xA0 : 0x80;
                high = lead == 0xED ? 0x9F : 0xBF;
            } else if (lead >= 0xF0 && lead <= 0xF4) {
                following = 3;
                low = lead == 0xF0 ? 0x90 : 0x80;
                high = lead == 0xF4 ? 0x8F : 0xBF;
            } else {
                return false;
            }
            if (i + following >= bytes.length) {
                return false;
            }
            int second = bytes[i + 1] & 0xFF;
            if (second < low || second > high) {
                return false;
            }
            for (int k = 2; k <= following; k++) {
                int next = bytes[i + k] & 0xFF;
                if (next < 0x80 || next > 0xBF) {
                    return false;
                }
            }
            i += following + 1;
        }
        return true;
    }
}
