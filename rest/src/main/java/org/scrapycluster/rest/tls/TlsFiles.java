package org.scrapycluster.rest.tls;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.scrapycluster.common.file.FileStamp;
import org.scrapycluster.common.file.UnreadableFile;
import org.scrapycluster.common.settings.Settings;

/**
 * The files of the gateway's HTTPS, as its settings name them.
 *
 * @param cert     {@value #CERT}: PEM certificate chain, the gateway's own certificate first
 * @param key      {@value #KEY}: PEM private key of that certificate
 * @param clientCa {@value #CLIENT_CA}: PEM certificates of the CAs whose client certificates are required, or
 *                 {@code null} when clients present none
 */
record TlsFiles(Path cert, Path key, Path clientCa) {

    static final String CERT = "REST_TLS_CERT_FILE";
    static final String KEY = "REST_TLS_KEY_FILE";
    static final String CLIENT_CA = "REST_TLS_CLIENT_CA_FILE";

    /**
     * The files the settings name, or empty when the gateway serves plain HTTP.
     *
     * @throws org.scrapycluster.common.settings.SettingsException when a certificate comes without its key, or the other
     *                                                              way round, or client certificates without HTTPS
     */
    static Optional<TlsFiles> from(Settings settings) {
        Path cert = path(settings, CERT);
        Path key = path(settings, KEY);
        Path clientCa = path(settings, CLIENT_CA);
        if (cert == null && key == null) {
            if (clientCa != null) {
                throw settings.invalid(CLIENT_CA, "asks clients for certificates, which takes HTTPS: set " + CERT + " and " + KEY);
            }
            return Optional.empty();
        }
        if (cert == null || key == null) {
            throw settings.invalid(cert == null ? CERT : KEY, "is not set, and " + (cert == null ? KEY : CERT)
                    + " is: the gateway's certificate and its private key go together");
        }
        return Optional.of(new TlsFiles(cert, key, clientCa));
    }

    /** How the files look now, to be read again when that changes. */
    List<FileStamp> stamps() throws UnusableTlsFile {
        List<FileStamp> stamps = new ArrayList<>(3);
        stamps.add(stamp(CERT, cert));
        stamps.add(stamp(KEY, key));
        if (clientCa != null) {
            stamps.add(stamp(CLIENT_CA, clientCa));
        }
        return stamps;
    }

    private static FileStamp stamp(String setting, Path file) throws UnusableTlsFile {
        try {
            return FileStamp.of(file);
        } catch (IOException e) {
            throw new UnusableTlsFile(setting, "is " + file + ", which cannot be read: " + UnreadableFile.reason(e));
        }
    }

    private static Path path(Settings settings, String name) {
        String value = settings.getNullableString(name);
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw settings.invalid(name, "is " + value + ", which is not a file name: " + e.getMessage());
        }
    }
}
