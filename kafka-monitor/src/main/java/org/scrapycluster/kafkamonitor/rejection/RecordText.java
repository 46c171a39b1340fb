package org.scrapycluster.kafkamonitor.rejection;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The text of a record as it can be shown in a log line or a JSON message, whatever its bytes:
 * UTF-8 decoded, each byte that is not part of valid UTF-8 written as {@code \xNN}, cut to a
 * number of characters without splitting a surrogate pair. Only the bytes needed are decoded, so a
 * 10 MB record costs no more than its first characters.
 */
public final class RecordText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private RecordText() {
    }

    /** At most {@code maxChars} characters of {@code bytes} (null: the empty text). */
    public static String preview(byte[] bytes, int maxChars) {
        if (bytes == null || maxChars <= 0) {
            return "";
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        StringBuilder text = new StringBuilder(Math.min(maxChars, bytes.length) + 8);
        CharBuffer out = CharBuffer.allocate(Math.min(maxChars, 4096) + 2);
        while (in.hasRemaining() && text.length() < maxChars) {
            int room = Math.min(out.capacity(), maxChars - text.length() + 1);
            out.clear().limit(Math.max(2, room));
            CoderResult result = decoder.decode(in, out, true);
            out.flip();
            text.append(out);
            if (result.isError()) {
                for (int i = 0; i < result.length() && text.length() < maxChars; i++) {
                    int bad = in.get() & 0xff;
                    text.append("\\x").append(HEX[bad >> 4]).append(HEX[bad & 0xf]);
                }
            } else if (result.isUnderflow()) {
                break;
            }
        }
        return cut(text, maxChars);
    }

    /** At most {@code maxChars} characters of {@code text}, a surrogate pair not split. */
    public static String cut(CharSequence text, int maxChars) {
        if (text.length() <= maxChars) {
            return text.toString();
        }
        int end = Character.isHighSurrogate(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
        return text.subSequence(0, end).toString();
    }
}
