package org.scrapycluster.rest.access;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.rest.http.Access;
import org.scrapycluster.rest.http.Caller;
import org.scrapycluster.rest.http.Callers;

/**
 * The gateway's API keys: write keys from {@code REST_API_KEYS} and the file
 * {@code REST_API_KEYS_FILE}, read keys from {@code REST_READ_KEYS} and {@code REST_READ_KEYS_FILE}.
 * When none of the four is set, keys are off and every caller may do everything. When any is set,
 * keys are on, even if the files are empty at the moment (then nobody gets in until a key is added). The files are
 * read again as {@link #refresh()} finds them changed, which the gateway has done every {@link #FILE_CHECK_PERIOD} on
 * a thread of its own: a caller's key is checked against the keys last read, with no file system call.
 */
public final class ApiKeys implements Callers {

    /** How often the gateway looks for changes to the key files. */
    public static final Duration FILE_CHECK_PERIOD = Duration.ofSeconds(1);

    private final List<KeyDigest> writeKeys;
    private final List<KeyDigest> readKeys;
    private final Optional<KeyFile> writeFile;
    private final Optional<KeyFile> readFile;
    private final boolean required;

    private ApiKeys(List<KeyDigest> writeKeys, List<KeyDigest> readKeys, Optional<KeyFile> writeFile, Optional<KeyFile> readFile) {
        this.writeKeys = List.copyOf(writeKeys);
        this.readKeys = List.copyOf(readKeys);
        this.writeFile = writeFile;
        this.readFile = readFile;
        this.required = !writeKeys.isEmpty() || !readKeys.isEmpty() || writeFile.isPresent() || readFile.isPresent();
    }

    /**
     * The keys the settings name; reads the key files.
     *
     * @throws org.scrapycluster.common.settings.SettingsException when a key file cannot be read
     */
    public static ApiKeys from(Settings settings) {
        return new ApiKeys(keys(settings, "REST_API_KEYS"), keys(settings, "REST_READ_KEYS"),
                file(settings, "REST_API_KEYS_FILE"), file(settings, "REST_READ_KEYS_FILE"));
    }

    /** Whether callers need a key: at least one key or key file is configured. */
    public boolean required() {
        return required;
    }

    /** Whether keys are read from files, which {@link #refresh()} looks at. */
    public boolean readsFiles() {
        return writeFile.isPresent() || readFile.isPresent();
    }

    /** Reads the key files again that changed since they were last read (docs/security.md, "Rotating keys"). */
    public void refresh() {
        writeFile.ifPresent(KeyFile::refresh);
        readFile.ifPresent(KeyFile::refresh);
    }

    @Override
    public Caller identify(String apiKey) {
        if (!required) {
            return Caller.ANONYMOUS;
        }
        if (apiKey == null || apiKey.isEmpty()) {
            return new Caller(Access.NONE, false, null);
        }
        KeyDigest presented = KeyDigest.of(apiKey);
        // Every list is looked at, so the time taken does not tell which kind of key matched.
        boolean write = presented.in(writeKeys) | presented.in(fromFile(writeFile));
        boolean read = presented.in(readKeys) | presented.in(fromFile(readFile));
        Access access = write ? Access.WRITE : read ? Access.READ : Access.NONE;
        return new Caller(access, false, presented.id());
    }

    private static List<KeyDigest> fromFile(Optional<KeyFile> file) {
        return file.map(KeyFile::keys).orElse(List.of());
    }

    private static List<KeyDigest> keys(Settings settings, String name) {
        return ShortKeys.digests(name, settings.getStringList(name).stream().map(String::strip).filter(key -> !key.isEmpty()).toList());
    }

    private static Optional<KeyFile> file(Settings settings, String name) {
        String path = settings.getNullableString(name);
        if (path == null || path.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new KeyFile(name, Path.of(path)));
        } catch (IOException e) {
            throw settings.invalid(name, "is " + path + ", which cannot be read (" + e + ")");
        }
    }
}
