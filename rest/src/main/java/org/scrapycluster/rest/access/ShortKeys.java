package org.scrapycluster.rest.access;

import java.util.ArrayList;
import java.util.List;

import org.scrapycluster.common.logging.SaidOnce;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Digests API keys and warns of those short enough to be guessed (docs/security.md): the gateway counts refusals but
 * does not slow a caller who tries key after key, so a key's length is what keeps it from being found. A key is named
 * by its digest, never by itself.
 */
final class ShortKeys {

    /** Fewer characters than this are warned of: 16 random hexadecimal digits are 64 bits. */
    static final int MINIMUM = 16;

    private static final Logger LOG = LoggerFactory.getLogger(ShortKeys.class);
    /** The warnings given, each once a process: a start's check of the settings reads the keys before the start does. */
    private static final SaidOnce TOLD = new SaidOnce("setting and keys");

    private ShortKeys() {
    }

    /**
     * The digests of {@code keys}, read from {@code source} (a setting), in order; logs one warning when they hold one
     * shorter than {@link #MINIMUM}, once a process for those keys of that source.
     */
    static List<KeyDigest> digests(String source, List<String> keys) {
        List<KeyDigest> digests = new ArrayList<>(keys.size());
        List<String> shortOnes = new ArrayList<>();
        for (String key : keys) {
            KeyDigest digest = KeyDigest.of(key);
            digests.add(digest);
            if (key.length() < MINIMUM) {
                shortOnes.add(digest.id());
            }
        }
        if (!shortOnes.isEmpty() && TOLD.first(source + " " + shortOnes)) {
            LOG.atWarn().addKeyValue("setting", source).addKeyValue("keys", String.join(",", shortOnes))
                    .log(source + " holds " + (shortOnes.size() == 1 ? "a key" : shortOnes.size() + " keys") + " of fewer than "
                            + MINIMUM + " characters, which a caller trying keys could find: use random ones, such as"
                            + " 'openssl rand -hex 16' prints");
        }
        return List.copyOf(digests);
    }
}
