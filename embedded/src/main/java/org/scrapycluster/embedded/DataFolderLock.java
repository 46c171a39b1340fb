package org.scrapycluster.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The lock a process holds on a data folder it keeps its embedded servers' data in ({@value #FILE}, holding its process
 * id), taken before any server starts: a second process started on the same folder would have run its own Redis on the
 * first one's files before Kafka's own lock refused it. The operating system releases it when the process ends, however
 * it ends.
 */
public final class DataFolderLock implements AutoCloseable {

    static final String FILE = ".scrapy-cluster.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataFolderLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code folder}, which exists.
     *
     * @throws IllegalStateException naming the folder and the process that holds it, when another one does
     */
    public static DataFolderLock take(Path folder) {
        FileChannel channel = null;
        try {
            channel = FileChannel.open(folder.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                throw new IllegalStateException("the data folder " + folder + " is " + inUse(channel)
                        + " (another standalone on it); stop that one, or give this one another folder");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII)), 0);
            return new DataFolderLock(channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock the data folder " + folder, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /** Who holds the lock of {@code folder} now ({@code in use by process 4242}), or empty when nobody does. */
    public static Optional<String> holder(Path folder) {
        if (!Files.exists(folder.resolve(FILE))) {
            return Optional.empty();
        }
        try (FileChannel channel = FileChannel.open(folder.resolve(FILE), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock lock = tryLock(channel);
            if (lock == null) {
                return Optional.of(inUse(channel));
            }
            lock.release();
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the lock of the data folder " + folder, e);
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null; // this process holds it already
        }
    }

    private static String inUse(FileChannel channel) throws IOException {
        ByteBuffer read = ByteBuffer.allocate(32);
        channel.read(read, 0);
        String pid = new String(read.array(), 0, read.position(), StandardCharsets.US_ASCII).strip();
        return "in use by " + (pid.isEmpty() ? "another process" : "process " + pid);
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
        try {
            lock.release();
        } catch (IOException e) {
            // closing the channel releases it all the same
        }
        closeQuietly(channel);
    }
}
