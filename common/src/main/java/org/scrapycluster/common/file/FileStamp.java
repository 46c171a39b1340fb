package org.scrapycluster.common.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;

/**
 * What a file looked like when it was read: its identity (inode), modification time and size, for a service that reads
 * a file again only when it changed. A mounted Kubernetes Secret or ConfigMap is changed by swapping the folder its
 * link points to, which changes the identity even when time and size stay the same.
 *
 * @param fileKey  the file's identity, or {@code null} where the file system has none
 * @param modified its last modification
 * @param size     its size in bytes
 */
public record FileStamp(Object fileKey, FileTime modified, long size) {

    public FileStamp {
        Objects.requireNonNull(modified, "modified");
    }

    /** How {@code path} (a link followed to its target) looks now. */
    public static FileStamp of(Path path) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
        return new FileStamp(attributes.fileKey(), attributes.lastModifiedTime(), attributes.size());
    }
}
