package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.RedisConnectionException;

/** Checks of a connection Redis or a Sentinel refuses to open, for the tests of credentials. */
final class Refusals {

    /** Connections tried for one to carry the refusal (see {@link #assertRefused}). */
    static final int ATTEMPTS = 10;

    private Refusals() {
    }

    /**
     * Opening fails with a RedisConnectionException whose causes name none of {@code secrets}, every attempt, and
     * {@code refusal} is among what the attempts say: Lettuce sometimes reports the connection's end
     * ("RedisHandshakeHandler not registered") instead of the answer that ended it (about one attempt in three with a
     * Sentinel; three in a row failed a CI run), so up to {@link #ATTEMPTS} attempts are made for one to carry it.
     */
    static void assertRefused(RedisEndpoint endpoint, String refusal, String... secrets) {
        StringBuilder said = new StringBuilder();
        for (int attempt = 0; attempt < ATTEMPTS && !said.toString().contains(refusal); attempt++) {
            RedisConnectionException e = assertThrows(RedisConnectionException.class, () -> RedisConnection.open(endpoint).close());
            for (Throwable t = e; t != null; t = t.getCause()) {
                said.append(t).append('\n');
                for (Throwable suppressed : t.getSuppressed()) {
                    said.append("  suppressed: ").append(suppressed).append('\n');
                }
            }
        }
        assertTrue(said.toString().contains(refusal), said.toString());
        for (String secret : secrets) {
            assertFalse(said.toString().contains(secret), said.toString());
        }
    }
}
