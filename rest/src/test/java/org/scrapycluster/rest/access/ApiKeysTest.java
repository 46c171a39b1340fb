package org.scrapycluster.rest.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.rest.http.Access;
import org.scrapycluster.rest.http.Caller;

import ch.qos.logback.classic.spi.ILoggingEvent;

/** Which key allows what, from settings and from files that change while the gateway runs. */
class ApiKeysTest {

    @TempDir
    Path dir;

    @Test
    void noKeysConfiguredLetsEveryoneDoEverything() {
        ApiKeys keys = ApiKeys.from(settings(Map.of()));
        assertFalse(keys.required());
        assertEquals(Caller.ANONYMOUS, keys.identify(null));
        assertEquals(Caller.ANONYMOUS, keys.identify("anything"));
    }

    @Test
    void writeReadAndUnknownKeys() {
        ApiKeys keys = ApiKeys.from(settings(Map.of("REST_API_KEYS", "w1, w2", "REST_READ_KEYS", "r1")));
        assertTrue(keys.required());
        assertEquals(Access.WRITE, keys.identify("w1").access());
        assertEquals(Access.WRITE, keys.identify("w2").access());
        assertEquals(Access.READ, keys.identify("r1").access());
        assertEquals(Access.NONE, keys.identify("w3").access());
        assertEquals(Access.NONE, keys.identify("").access());
        Caller none = keys.identify(null);
        assertEquals(Access.NONE, none.access());
        assertNull(none.keyId());
        assertFalse(keys.identify("r1").anonymous());
    }

    @Test
    void keysAreNamedByAShortHashNeverByThemselves() {
        ApiKeys keys = ApiKeys.from(settings(Map.of("REST_API_KEYS", "secret-key-1")));
        String id = keys.identify("secret-key-1").keyId();
        assertTrue(id.matches("[0-9a-f]{8}"), id);
        assertEquals(id, keys.identify("secret-key-1").keyId(), "the same key, the same name");
        assertFalse(keys.identify("secret-key-1").toString().contains("secret"));
    }

    @Test
    void keyFilesAreReadAgainWhenTheyChange() throws IOException {
        Path writeFile = dir.resolve("write-keys");
        Path readFile = dir.resolve("read-keys");
        Files.writeString(writeFile, "# rotated monthly\nold-key\n\n");
        Files.writeString(readFile, "reader\n");
        ApiKeys keys = ApiKeys.from(settings(Map.of("REST_API_KEYS_FILE", writeFile.toString(),
                "REST_READ_KEYS_FILE", readFile.toString())));
        assertEquals(Access.WRITE, keys.identify("old-key").access());
        assertEquals(Access.READ, keys.identify("reader").access());
        assertEquals(Access.NONE, keys.identify("# rotated monthly").access(), "comments are not keys");

        Files.writeString(writeFile, "old-key\nnew-key\n");
        assertEquals(Access.NONE, keys.identify("new-key").access(), "a request never looks at the file itself");
        keys.refresh();
        assertEquals(Access.WRITE, keys.identify("new-key").access(), "a key added to the file works from the next check on");
        Files.writeString(writeFile, "new-key\n");
        keys.refresh();
        assertEquals(Access.NONE, keys.identify("old-key").access(), "a key removed from the file stops working");
        assertEquals(Access.WRITE, keys.identify("new-key").access());
        assertEquals(Access.READ, keys.identify("reader").access(), "an unchanged file keeps its keys");
    }

    @Test
    void aSwappedFileIsReadAsAMountedSecretIsRotated() throws IOException {
        Path first = Files.writeString(dir.resolve("keys-1"), "first\n");
        Path second = Files.writeString(dir.resolve("keys-2"), "second\n");
        Path link = Files.createSymbolicLink(dir.resolve("api-keys"), first);
        ApiKeys keys = ApiKeys.from(settings(Map.of("REST_API_KEYS_FILE", link.toString())));
        assertEquals(Access.WRITE, keys.identify("first").access());

        Path next = Files.createSymbolicLink(dir.resolve("api-keys.next"), second);
        Files.move(next, link, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        keys.refresh();
        assertEquals(Access.WRITE, keys.identify("second").access());
        assertEquals(Access.NONE, keys.identify("first").access());
    }

    @Test
    void keysStayInForceWhenTheFileGoesAwayAndKeysStayOnWhenItIsEmpty() throws IOException {
        Path file = Files.writeString(dir.resolve("keys"), "k1\n");
        ApiKeys keys = ApiKeys.from(settings(Map.of("REST_API_KEYS_FILE", file.toString())));
        Files.delete(file);
        keys.refresh();
        assertEquals(Access.WRITE, keys.identify("k1").access());

        Files.writeString(file, "");
        keys.refresh();
        assertEquals(Access.WRITE, keys.identify("k1").access(), "emptied for a moment, as an editor saving in place does");
        Files.writeString(file, "k1\nk2\n");
        keys.refresh();
        assertEquals(Access.WRITE, keys.identify("k2").access(), "and written");

        Files.writeString(file, "");
        keys.refresh();
        keys.refresh();
        assertTrue(keys.required(), "an empty key file still means keys are on");
        assertEquals(Access.NONE, keys.identify("k1").access(), "an empty file two checks running has no keys");
    }

    @Test
    void aByteOrderMarkIsNoPartOfTheFirstKey() throws IOException {
        Path file = Files.writeString(dir.resolve("keys"), "\uFEFF# written by Notepad\n0123456789abcdef0123456789abcdef\n");
        ApiKeys keys = ApiKeys.from(settings(Map.of("REST_API_KEYS_FILE", file.toString())));
        assertEquals(Access.WRITE, keys.identify("0123456789abcdef0123456789abcdef").access());
        assertEquals(Access.NONE, keys.identify("# written by Notepad").access(), "a comment still");
        Files.writeString(file, "\uFEFFfedcba9876543210fedcba9876543210\n");
        keys.refresh();
        assertEquals(Access.WRITE, keys.identify("fedcba9876543210fedcba9876543210").access());
    }

    /** Once a process: the standalone's check of the settings reads them before the gateway starts on them. */
    @Test
    void keysShortEnoughToBeGuessedAreWarnedOfByTheirDigestsOnce() throws IOException {
        String strong = "0123456789abcdef";
        String weak = "k" + UUID.randomUUID().toString().substring(0, 6); // no other test's, which would have been told
        Path file = Files.writeString(dir.resolve("keys"), strong + "\n");
        Settings settings = settings(Map.of("REST_API_KEYS", weak + ", " + strong, "REST_READ_KEYS", weak + "r1, " + weak + "r2",
                "REST_API_KEYS_FILE", file.toString()));
        List<ILoggingEvent> logged = CapturedLog.of(ShortKeys.class.getName(), () -> {
            ApiKeys.from(settings);
            ApiKeys keys = ApiKeys.from(settings);
            try {
                Files.writeString(file, weak + "short\n" + strong + "\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            keys.refresh();
        });

        List<String> lines = logged.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertEquals(List.of(
                "REST_API_KEYS holds a key of fewer than 16 characters, which a caller trying keys could find: use random ones, "
                        + "such as 'openssl rand -hex 16' prints",
                "REST_READ_KEYS holds 2 keys of fewer than 16 characters, which a caller trying keys could find: use random ones, "
                        + "such as 'openssl rand -hex 16' prints",
                "REST_API_KEYS_FILE holds a key of fewer than 16 characters, which a caller trying keys could find: use random ones, "
                        + "such as 'openssl rand -hex 16' prints"), lines, "each once, the file when it was read again, not at start");
        assertEquals(KeyDigest.of(weak).id(), logged.getFirst().getKeyValuePairs().stream()
                .filter(pair -> pair.key.equals("keys")).findFirst().orElseThrow().value, "named by its digest");
        assertTrue(logged.stream().noneMatch(event -> event.toString().contains(weak)));
    }

    @Test
    void anUnreadableKeyFileAtStartIsASettingsError() {
        SettingsException error = assertThrows(SettingsException.class, () -> ApiKeys.from(settings(Map.of(
                "REST_READ_KEYS_FILE", dir.resolve("missing").toString()))));
        assertTrue(error.getMessage().contains("REST_READ_KEYS_FILE"), error.getMessage());
    }

    private static Settings settings(Map<String, String> values) {
        return Settings.load("rest", new SettingsSources(null, Map.of(), new LinkedHashMap<>(values)));
    }
}
