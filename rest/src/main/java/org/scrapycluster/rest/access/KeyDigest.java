package org.scrapycluster.rest.access;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The SHA-256 digest of an API key. Keys are held and compared only as digests, in time that does
 * not depend on where two keys differ, and named in logs by the first 8 hex digits of the digest.
 */
record KeyDigest(byte[] bytes) {

    private static final int ID_BYTES = 4;

    static KeyDigest of(String key) {
        try {
            return new KeyDigest(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Whether {@code keys} holds this digest; looks at every one of them, whether one matched or not. */
    boolean in(List<KeyDigest> keys) {
        boolean found = false;
        for (KeyDigest key : keys) {
            found |= MessageDigest.isEqual(bytes, key.bytes);
        }
        return found;
    }

    /** A short hash naming the key in logs. */
    String id() {
        return HexFormat.of().formatHex(bytes, 0, ID_BYTES);
    }
}
