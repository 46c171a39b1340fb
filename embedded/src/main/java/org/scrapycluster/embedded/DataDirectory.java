package org.scrapycluster.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Where an embedded server keeps its files. A temporary directory is deleted when the server
 * stops; a directory the user named is kept, so its data survives a restart.
 */
public record DataDirectory(Path path, boolean temporary) {

    /** The file of {@link #temporaryOfThisProcess}'s directories that names the process they belong to. */
    static final String OWNER = "owner.pid";

    /** A fresh directory under {@code java.io.tmpdir}, removed again by {@link #release()}. */
    public static DataDirectory temporary(String prefix) {
        try {
            return new DataDirectory(Files.createTempDirectory(prefix), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for " + prefix, e);
        }
    }

    /**
     * A fresh temporary directory as {@link #temporary} makes it, marked with this process's id ({@value #OWNER}), after
     * removing those of the same prefix whose marking process is gone: a process killed outright (kill -9, out of
     * memory) runs no clean-up of its own, and its embedded servers' data would stay until the machine's temporary
     * files are cleaned. A directory whose process id names a running process is kept, whatever that process is.
     */
    public static DataDirectory temporaryOfThisProcess(String prefix) {
        Path parent = Path.of(System.getProperty("java.io.tmpdir"));
        try (DirectoryStream<Path> siblings = Files.newDirectoryStream(parent, prefix + "*")) {
            for (Path sibling : siblings) {
                if (ownerIsGone(sibling)) {
                    new DataDirectory(sibling, true).releaseQuietly();
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // left as it is: another start may remove it
        }
        DataDirectory made = temporary(prefix);
        try {
            Files.writeString(made.path.resolve(OWNER), Long.toString(ProcessHandle.current().pid()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark " + made.path + " as this process's", e);
        }
        return made;
    }

    /** Whether the process that marked {@code directory} is no longer running; false when it is unmarked. */
    private static boolean ownerIsGone(Path directory) {
        try {
            return ProcessHandle.of(Long.parseLong(Files.readString(directory.resolve(OWNER)).strip())).isEmpty();
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }

    private void releaseQuietly() {
        try {
            release();
        } catch (UncheckedIOException e) {
            // a file another user owns: left
        }
    }

    /** A directory that is kept; created when missing. */
    public static DataDirectory kept(Path path) {
        try {
            return new DataDirectory(Files.createDirectories(path), false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create data directory " + path, e);
        }
    }

    /** The sub-directory {@code name}, temporary when this one is. */
    public DataDirectory child(String name) {
        try {
            return new DataDirectory(Files.createDirectories(path.resolve(name)), temporary);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create data directory " + path.resolve(name), e);
        }
    }

    /** Deletes the directory and everything below it when it is temporary. */
    public void release() {
        if (!temporary || !Files.exists(path)) {
            return;
        }
        try {
            Files.walkFileTree(path, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }
}
