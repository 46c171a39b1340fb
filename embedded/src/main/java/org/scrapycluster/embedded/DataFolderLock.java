package org.scrapycluster.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The lock a process holds on a data folder it keeps its embedded servers' data in ({@value #FILE}, holding its process
 * id), taken before any server starts: a second process started on the same folder would have run its own Redis on the
 * first one's files before Kafka's own lock refused it. The operating system releases it when the process ends, however
 * it ends.
 */
public final class DataFolderLock implements AutoCloseable {

    static final String FILE = ".scrapy-cluster.lock";
    /**
     * The folders this process holds, by real path: closing any channel of the lock file would release the process's
     * lock on it (POSIX locks are the process's), so a second look from this process must not open one.
     */
    private static final Map<Path, DataFolderLock> HELD = new HashMap<>(); // under the class's lock

    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;

    private DataFolderLock(Path key, FileChannel channel, FileLock lock) {
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code folder}, which exists.
     *
     * @throws IllegalStateException naming the folder and the process that holds it, when another one does, or this one
     */
    public static synchronized DataFolderLock take(Path folder) {
        Path key = realPath(folder);
        if (HELD.containsKey(key)) {
            throw new IllegalStateException(inUseMessage(folder, ownHolder()));
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(folder.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new IllegalStateException(inUseMessage(folder, inUse(channel)));
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII)), 0);
            DataFolderLock taken = new DataFolderLock(key, channel, lock);
            HELD.put(key, taken);
            return taken;
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock the data folder " + folder, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /**
     * Who holds the lock of {@code folder} now, with what to do ({@code in use by process 4242 (another standalone on it);
     * stop that one, or give this one another folder}), or empty when nobody does. Asked with a
     * shared lock on a channel open for reading only, so that a lock file this user may only read is asked too.
     *
     * @throws UncheckedIOException when the lock file cannot be read
     */
    public static synchronized Optional<String> holder(Path folder) {
        Path file = folder.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        if (HELD.containsKey(realPath(folder))) {
            return Optional.of(ownHolder());
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            FileLock shared = channel.tryLock(0, Long.MAX_VALUE, true);
            if (shared == null) {
                return Optional.of(inUse(channel));
            }
            shared.release();
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the lock file " + file, e);
        }
    }

    private static Path realPath(Path folder) {
        try {
            return folder.toRealPath();
        } catch (IOException e) {
            return folder.toAbsolutePath().normalize();
        }
    }

    private static String ownHolder() {
        return inUseBy("process " + ProcessHandle.current().pid());
    }

    private static String inUseMessage(Path folder, String holder) {
        return "the data folder " + folder + " is " + holder;
    }

    private static String inUse(FileChannel channel) throws IOException {
        ByteBuffer read = ByteBuffer.allocate(32);
        channel.read(read, 0);
        String pid = new String(read.array(), 0, read.position(), StandardCharsets.US_ASCII).strip();
        return inUseBy(pid.isEmpty() ? "another process" : "process " + pid);
    }

    private static String inUseBy(String process) {
        return "in use by " + process + " (another standalone on it); stop that one, or give this one another folder";
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing more to release
            }
        }
    }

    /** Releases the lock; the file stays, so that the folder's owner can be read while one holds it. */
    @Override
    public void close() {
        synchronized (DataFolderLock.class) {
            HELD.remove(key, this);
            try {
                lock.release();
            } catch (IOException e) {
                // closing the channel releases it all the same
            }
            closeQuietly(channel);
        }
    }
}
