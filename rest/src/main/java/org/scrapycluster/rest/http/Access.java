package org.scrapycluster.rest.http;

import java.util.Locale;

/**
 * What a caller of the gateway may do, by the key it presents ({@code REST_API_KEYS},
 * {@code REST_READ_KEYS}): nothing, read, or everything. Ordered: each level covers the ones
 * before it.
 */
public enum Access {

    /** No valid key: only the open paths ({@code /health}, the web UI's files). */
    NONE,
    /** A read key: {@code GET} routes, {@code /poll}, and {@code info} / {@code stats} through {@code /feed}. */
    READ,
    /** A write key, or no keys configured: everything. */
    WRITE;

    /** Whether this level allows what {@code needed} requires. */
    public boolean covers(Access needed) {
        return compareTo(needed) >= 0;
    }

    /** {@code none}, {@code read} or {@code write}, as {@code GET /access} answers it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
