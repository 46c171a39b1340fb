package org.scrapycluster.common.file;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Why a file a user named ({@code feed --file}, {@code zookeeper push}, a settings override file) could not be read, in
 * words: Java's {@link FileSystemException}s carry the file's name as their message and the reason apart.
 */
public final class UnreadableFile {

    private UnreadableFile() {
    }

    /**
     * Refuses {@code path} unless it is a regular file (a link to one counts), before it is opened: a FIFO named as a
     * file would block its reader until something writes to it, for good when nothing does, and a device such as
     * {@code /dev/zero} never ends. Its reason is {@code not a regular file}.
     */
    public static void requireRegularFile(Path path) throws IOException {
        if (!Files.readAttributes(path, BasicFileAttributes.class).isRegularFile()) {
            throw new FileSystemException(path.toString(), null, "not a regular file");
        }
    }

    /**
     * {@code no such file}, {@code permission denied}, {@code not UTF-8 text} (for a reader that decodes it: Java's
     * own words are {@code Input length = 1}), or the system's reason.
     */
    public static String reason(IOException e) {
        return switch (e) {
            case NoSuchFileException missing -> "no such file";
            case AccessDeniedException denied -> "permission denied";
            case CharacterCodingException coding -> "not UTF-8 text";
            case FileSystemException other when other.getReason() != null -> other.getReason();
            default -> e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        };
    }
}
