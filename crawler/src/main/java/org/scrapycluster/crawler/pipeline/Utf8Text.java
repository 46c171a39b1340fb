package org.scrapycluster.crawler.pipeline;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonGenerator;

/**
 * Writes a body that is valid UTF-8 into JSON straight from its bytes (escaped as JSON requires, never decoded into a
 * Java string, and into the message's own buffer): the bulk of a result message, so this is where encoding time goes.
 * The escapes are Jackson's own (two characters such as {@code \n}, six for other control characters), made here by
 * copying the runs between them. The bytes are read eight at a time, and a word that holds a byte to escape leads
 * straight to the first such byte: several times faster on HTML than Jackson's byte-by-byte loop. The bytes are checked
 * to be well-formed UTF-8 in the same pass.
 */
final class Utf8Text {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Utf8Text() {
    }

    /**
     * Writes {@code bytes} as a JSON string value where {@code generator} stands, escaped straight into
     * {@code out}, the generator's output; when they are not well-formed UTF-8, writes {@code decoded} instead.
     */
    static void write(byte[] bytes, Supplier<String> decoded, JsonGenerator generator, MessageBuffer out) throws IOException {
        generator.writeRawValue("\"");
        generator.flush();
        if (!escape(bytes, out)) {
            escape(decoded.get().getBytes(StandardCharsets.UTF_8), out);
        }
        generator.writeRaw('"');
    }

    /**
     * Appends the JSON string content of {@code bytes}, as Jackson's {@code writeUTF8String} escapes it, to
     * {@code out}, checking in the same pass that they are well-formed UTF-8 (RFC 3629: no overlong forms,
     * surrogates or values past U+10FFFF). Returns false, having appended nothing, when they are not.
     */
    static boolean escape(byte[] bytes, MessageBuffer out) {
        int start = out.size();
        int run = 0;
        int i = 0;
        int lastWord = bytes.length - Long.BYTES;
        while (i < bytes.length) {
            if (i <= lastWord) {
                // eight bytes at a time past plain ASCII, then straight to the first byte that is not
                long special = special((long) LONGS.get(bytes, i));
                if (special == 0) {
                    i += Long.BYTES;
                    continue;
                }
                i += Long.numberOfTrailingZeros(special) >>> 3;
            }
            int b = bytes[i];
            if (b >= 0x20 && b != '"' && b != '\\') {
                i++; // a plain byte of the last seven
                continue;
            }
            if (b < 0) {
                int length = sequenceLength(bytes, i);
                if (length == 0) {
                    out.truncate(start);
                    return false;
                }
                i += length; // the sequence stays in the run
                continue;
            }
            out.write(bytes, run, i - run);
            run = i + 1;
            int at = out.size();
            out.wrote(writeEscape(b, out.room(6), at) - at);
            i++;
        }
        out.write(bytes, run, bytes.length - run);
        return true;
    }

    /**
     * The high bit of each of the eight bytes of {@code word} (the first byte lowest) that is not ASCII JSON takes as it
     * is: 0x80 or above, a control character, a quote or a backslash; 0 when there is none. A byte above one of those may
     * be marked wrongly (a borrow of the classic has-a-byte-below test), the lowest mark never: it is the first such byte.
     */
    private static long special(long word) {
        long quotes = word ^ 0x2222222222222222L;
        long backslashes = word ^ 0x5C5C5C5C5C5C5C5CL;
        long below = (word - 0x2020202020202020L) & ~word
                | (quotes - 0x0101010101010101L) & ~quotes
                | (backslashes - 0x0101010101010101L) & ~backslashes;
        return (below | word) & 0x8080808080808080L;
    }

    private static int writeEscape(int b, byte[] out, int at) {
        int next = at;
        out[next++] = '\\';
        byte shortForm = switch (b) {
            case '"', '\\' -> (byte) b;
            case '\b' -> 'b';
            case '\f' -> 'f';
            case '\n' -> 'n';
            case '\r' -> 'r';
            case '\t' -> 't';
            default -> 0;
        };
        if (shortForm != 0) {
            out[next++] = shortForm;
            return next;
        }
        out[next++] = 'u';
        out[next++] = '0';
        out[next++] = '0';
        out[next++] = HEX[b >> 4];
        out[next++] = HEX[b & 0xF];
        return next;
    }

    /**
     * The length of the well-formed UTF-8 sequence of two to four bytes that starts at {@code i}, whose
     * lead byte is 0x80 or above; 0 when there is none.
     */
    private static int sequenceLength(byte[] bytes, int i) {
        int lead = bytes[i] & 0xFF;
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
            return 0;
        }
        if (i + following >= bytes.length) {
            return 0;
        }
        int second = bytes[i + 1] & 0xFF;
        if (second < low || second > high) {
            return 0;
        }
        for (int k = 2; k <= following; k++) {
            int next = bytes[i + k] & 0xFF;
            if (next < 0x80 || next > 0xBF) {
                return 0;
            }
        }
        return following + 1;
    }
}
