package org.scrapycluster.common.bytes;

import java.util.Arrays;

/** A run of bytes that data of some kind starts with: a byte order mark, a format's magic number. Immutable. */
public final class BytePrefix {

    /** UTF-8's byte order mark, U+FEFF encoded: EF BB BF. */
    public static final BytePrefix UTF_8_MARK = of(0xEF, 0xBB, 0xBF);
    /** UTF-16's byte order mark, big-endian: FE FF. */
    public static final BytePrefix UTF_16_BE_MARK = of(0xFE, 0xFF);
    /** UTF-16's byte order mark, little-endian: FF FE (the start of UTF-32's little-endian mark too). */
    public static final BytePrefix UTF_16_LE_MARK = of(0xFF, 0xFE);
    /** UTF-32's byte order mark, big-endian: 00 00 FE FF. */
    public static final BytePrefix UTF_32_BE_MARK = of(0x00, 0x00, 0xFE, 0xFF);
    /** UTF-32's byte order mark, little-endian: FF FE 00 00. */
    public static final BytePrefix UTF_32_LE_MARK = of(0xFF, 0xFE, 0x00, 0x00);
    /** The magic number gzip data starts with (RFC 1952): 1F 8B. */
    public static final BytePrefix GZIP = of(0x1F, 0x8B);

    private final byte[] bytes;

    private BytePrefix(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * The prefix of {@code bytes}, each from 0 to 255.
     *
     * @throws IllegalArgumentException when there is none, or one is not a byte's value
     */
    public static BytePrefix of(int... bytes) {
        if (bytes.length == 0) {
            throw new IllegalArgumentException("a prefix has at least one byte");
        }
        byte[] prefix = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] < 0 || bytes[i] > 0xFF) {
                throw new IllegalArgumentException("not a byte's value: " + bytes[i]);
            }
            prefix[i] = (byte) bytes[i];
        }
        return new BytePrefix(prefix);
    }

    /** Whether {@code data} starts with this prefix. */
    public boolean starts(byte[] data) {
        return data.length >= bytes.length && Arrays.equals(data, 0, bytes.length, bytes, 0, bytes.length);
    }

    /** How many bytes the prefix has. */
    public int length() {
        return bytes.length;
    }

    /** The bytes in hexadecimal, as {@code 1f 8b}. */
    @Override
    public String toString() {
        StringBuilder hex = new StringBuilder();
        for (byte b : bytes) {
            hex.append(hex.isEmpty() ? "" : " ").append(String.format("%02x", b & 0xFF));
        }
        return hex.toString();
    }
}
