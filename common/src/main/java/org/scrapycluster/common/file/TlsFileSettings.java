package org.scrapycluster.common.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

import org.scrapycluster.common.settings.Settings;

/**
 * The files of a client's TLS settings ({@code REDIS_TLS_CA_FILE}, {@code ZOOKEEPER_TLS_CA_FILE}, ...), checked as a
 * service starts: each one named is read once, so that a missing or unreadable file stops the start naming its setting
 * instead of failing every connection later, and none may be named while the switch that turns TLS on is off.
 */
public final class TlsFileSettings {

    private TlsFileSettings() {
    }

    /**
     * The files {@code names} give, in their order, {@code null} for one not set (or blank).
     *
     * @param tls    the boolean setting that turns the TLS on ({@code REDIS_TLS})
     * @param server whose TLS it is, for messages ({@code Redis})
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting of a file that cannot be read, or
     *                                                              of one named while {@code tls} is false
     */
    public static String[] read(Settings settings, String tls, String server, String... names) {
        boolean on = settings.getBoolean(tls);
        String[] files = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            String file = settings.getNullableString(names[i]);
            if (file == null || file.isBlank()) {
                continue;
            }
            if (!on) {
                throw settings.invalid(names[i], "names a file for " + server + "'s TLS, so " + tls + " must be true");
            }
            try {
                Path path = Path.of(file);
                UnreadableFile.requireRegularFile(path);
                Files.readAllBytes(path); // a few certificates
            } catch (IOException | InvalidPathException e) {
                throw settings.invalid(names[i], "is " + file + ", which cannot be read: "
                        + (e instanceof IOException io ? UnreadableFile.reason(io) : e.getMessage()));
            }
            files[i] = file;
        }
        return files;
    }
}
