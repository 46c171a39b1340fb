package org.scrapycluster.rest.access;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.scrapycluster.common.file.FileStamp;
import org.scrapycluster.common.file.UnreadableFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file of API keys, one a line (blank lines and lines starting with {@code #} skipped), read
 * again when {@link #refresh() a check} finds its modification time, size or identity changed: a key is added or
 * revoked by rewriting the file (or swapping the mounted secret it links to), without a restart. When the
 * file cannot be read any more, the keys last read stay in force and a warning is logged once. A file that had keys and
 * reads as having none (an editor saving it in place has emptied it and not yet written it) is taken at its word only
 * when the next check finds it as it was, so that the save does not answer every holder 401 for a second. A byte order
 * mark (U+FEFF, which some editors write first) is no part of a key. The keys are handed out
 * as last read, so that a request never waits for the file system (a hung secret mount would stall the gateway's
 * event loops, which check every request's key).
 */
final class KeyFile {

    private static final Logger LOG = LoggerFactory.getLogger(KeyFile.class);
    private static final String BYTE_ORDER_MARK = "\uFEFF";

    /** The keys read, and what the file looked like when they were. */
    private record Loaded(FileStamp stamp, List<KeyDigest> keys) {
    }

    private final String setting;
    private final Path path;
    private volatile Loaded loaded;
    /** Whether the last check could not read the file; guarded by this. */
    private boolean failing;
    /** The file as the last check found it, having no keys where the keys in force came from one that had; guarded by this. */
    private Loaded emptied;

    /**
     * Reads {@code path}.
     *
     * @param setting the setting naming the file, for messages
     * @throws IOException when it cannot be read
     */
    KeyFile(String setting, Path path) throws IOException {
        this.setting = setting;
        this.path = path;
        this.loaded = read();
        LOG.atInfo().addKeyValue("file", path.toString()).addKeyValue("keys", loaded.keys().size())
                .log("Read the API keys of " + setting);
    }

    /** The keys last read. */
    List<KeyDigest> keys() {
        return loaded.keys();
    }

    /** Looks at the file, and reads it again when it changed since it was last read. */
    synchronized void refresh() {
        try {
            FileStamp stamp = FileStamp.of(path);
            if (emptied != null && emptied.stamp().equals(stamp)) {
                adopt(emptied); // empty still a check later: no save in place in between
            } else if (!loaded.stamp().equals(stamp)) {
                Loaded read = read();
                if (read.keys().isEmpty() && !loaded.keys().isEmpty()) {
                    emptied = read; // perhaps an editor's save in place, between truncating the file and writing it
                } else {
                    adopt(read);
                }
            }
            failing = false;
        } catch (IOException e) {
            if (!failing) {
                failing = true;
                LOG.atWarn().addKeyValue("file", path.toString()).addKeyValue("error", String.valueOf(e))
                        .log("Cannot read the API keys of " + setting + "; the keys read before stay in force");
            }
        }
    }

    private void adopt(Loaded read) {
        emptied = null;
        loaded = read;
        LOG.atInfo().addKeyValue("file", path.toString()).addKeyValue("keys", read.keys().size())
                .log("Read the API keys of " + setting + " again: the file changed");
    }

    /** Reads the attributes before the lines, so that a write during the read is seen as a change next time. */
    private Loaded read() throws IOException {
        FileStamp stamp = FileStamp.of(path);
        UnreadableFile.requireRegularFile(path); // a FIFO would hold the thread that checks every key file for good
        List<String> keys = Files.readAllLines(path, StandardCharsets.UTF_8).stream()
                .map(line -> line.replace(BYTE_ORDER_MARK, "").strip())
                .filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
        return new Loaded(stamp, ShortKeys.digests(setting, keys));
    }
}
