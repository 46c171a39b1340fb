package org.scrapycluster.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
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

    /** A fresh directory under {@code java.io.tmpdir}, removed again by {@link #release()}. */
    public static DataDirectory temporary(String prefix) {
        try {
            return new DataDirectory(Files.createTempDirectory(prefix), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for " + prefix, e);
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
