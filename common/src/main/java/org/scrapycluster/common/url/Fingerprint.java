package org.scrapycluster.common.url;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.HexFormat;

/**
 * A request's fingerprint ({@link RequestFingerprint}): the SHA-1 digest. Its lower-case hex text, what a
 * dupefilter holds, is made only when asked for: a crawler answers most of a page's links from the
 * fingerprints it remembers, and remembers them by their first 64 bits ({@link #leading64()}). Immutable.
 */
public final class Fingerprint {

    private static final HexFormat HEX = HexFormat.of();
    private static final VarHandle LONG_AT = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final byte[] sha1;

    Fingerprint(byte[] sha1) {
        this.sha1 = sha1;
    }

    /** The lower-case hex text of the digest, as Scrapy writes it into the dupefilter. */
    public String hex() {
        return HEX.formatHex(sha1);
    }

    /**
     * The digest's first eight bytes, big-endian: the number the first 16 characters of {@link #hex()} spell.
     * Two requests share it by chance once in 2<sup>64</sup>.
     */
    public long leading64() {
        return (long) LONG_AT.get(sha1, 0);
    }

    @Override
    public String toString() {
        return hex();
    }
}
