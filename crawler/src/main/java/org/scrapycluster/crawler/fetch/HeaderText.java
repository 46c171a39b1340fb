package org.scrapycluster.crawler.fetch;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Header values (and the status line's reason phrase) as text. Netty reads header bytes one to one into chars
 * (ISO-8859-1); servers that send non-ASCII headers nearly always mean UTF-8, so a value whose bytes are valid
 * UTF-8 is read as UTF-8.
 */
final class HeaderText {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private HeaderText() {
    }

    /** {@code raw} with every value read by {@link #value(String)}. */
    static HeaderMap decodeValues(HeaderMap raw) {
        boolean ascii = true;
        for (Map.Entry<String, String> header : raw.entries()) {
            ascii &= isAscii(header.getValue());
        }
        if (ascii) {
            return raw;
        }
        HeaderMap.Builder decoded = HeaderMap.builder();
        for (Map.Entry<String, String> header : raw.entries()) {
            decoded.add(header.getKey(), value(header.getValue()));
        }
        return decoded.build();
    }

    /**
     * A value to send, as the chars Netty writes one to one as bytes: its UTF-8 encoding, as Scrapy sends a
     * header's text (a {@code ü} goes out as {@code C3 BC}, a {@code 爬} as three bytes); an ASCII value as it is.
     */
    static String wire(String value) {
        return isAscii(value) ? value : new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    /** The value read as UTF-8 when its bytes are valid UTF-8, else as ISO-8859-1. */
    static String value(String raw) {
        if (isAscii(raw)) {
            return raw;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw.getBytes(StandardCharsets.ISO_8859_1))).toString();
        } catch (CharacterCodingException e) {
            return raw;
        }
    }

    /**
     * A URL sent in a header (Location), read as w3lib reads one: UTF-8, with every byte that is not part
     * of a valid UTF-8 sequence percent-escaped.
     */
    static String urlFromHeader(String raw) {
        if (isAscii(raw)) {
            return raw;
        }
        byte[] bytes = raw.getBytes(StandardCharsets.ISO_8859_1);
        StringBuilder out = new StringBuilder(bytes.length + 16);
        int i = 0;
        while (i < bytes.length) {
            int length = validSequenceLength(bytes, i);
            if (length == 0) {
                int b = bytes[i] & 0xFF;
                out.append('%').append(HEX[b >> 4]).append(HEX[b & 0xF]);
                i++;
            } else {
                out.append(new String(bytes, i, length, StandardCharsets.UTF_8));
                i += length;
            }
        }
        return out.toString();
    }

    /** The length of the valid UTF-8 sequence starting at {@code bytes[i]}, or 0 when there is none. */
    private static int validSequenceLength(byte[] bytes, int i) {
        int lead = bytes[i] & 0xFF;
        int length;
        int min;
        if (lead < 0x80) {
            return 1;
        } else if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
            min = 0x80;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            min = 0x800;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            min = 0x10000;
        } else {
            return 0;
        }
        if (i + length > bytes.length) {
            return 0;
        }
        int codePoint = lead & (0xFF >> (length + 1));
        for (int k = 1; k < length; k++) {
            int next = bytes[i + k] & 0xFF;
            if ((next & 0xC0) != 0x80) {
                return 0;
            }
            codePoint = codePoint << 6 | next & 0x3F;
        }
        boolean surrogate = codePoint >= 0xD800 && codePoint <= 0xDFFF;
        return codePoint < min || codePoint > 0x10FFFF || surrogate ? 0 : length;
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}
