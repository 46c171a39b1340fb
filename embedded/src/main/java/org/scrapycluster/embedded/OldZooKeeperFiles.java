package org.scrapycluster.embedded;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Set;

import org.apache.zookeeper.server.persistence.FileSnap;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;
import org.apache.zookeeper.server.persistence.Util;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the embedded ZooKeeper's snapshots but the newest few, and the transaction logs those do not need, by the rule of
 * ZooKeeper's own {@code PurgeTxnLog}; which, written as a command, also prints every file it deletes on standard output,
 * outside the log's format. These go to the log, at debug (docs/operations.md "The embedded ZooKeeper's files").
 */
final class OldZooKeeperFiles {

    private static final Logger LOG = LoggerFactory.getLogger(OldZooKeeperFiles.class);

    private OldZooKeeperFiles() {
    }

    /** Keeps the newest {@code kept} valid snapshots of {@code files}, and every log file from the oldest of them on. */
    static void delete(FileTxnSnapLog files, int kept) throws IOException {
        List<File> snapshots = files.findNValidSnapshots(kept);
        if (snapshots.isEmpty()) {
            return;
        }
        long oldestKept = Util.getZxidFromName(snapshots.getLast().getName(), FileSnap.SNAPSHOT_FILE_PREFIX);
        // the log file that begins before the oldest snapshot kept holds the transactions after it
        Set<File> needed = Set.of(files.getSnapshotLogs(oldestKept));
        deleteOlder(files.getDataLogDir(), FileTxnLog.LOG_FILE_PREFIX, oldestKept, needed);
        deleteOlder(files.getSnapDir(), FileSnap.SNAPSHOT_FILE_PREFIX, oldestKept, needed);
    }

    private static void deleteOlder(File folder, String prefix, long oldestKept, Set<File> needed) {
        File[] older = folder.listFiles(file -> file.getName().startsWith(prefix + ".") && !needed.contains(file)
                && Util.getZxidFromName(file.getName(), prefix) < oldestKept);
        for (File file : older == null ? new File[0] : older) {
            if (file.delete()) {
                LOG.debug("Deleted the old ZooKeeper file {}", file);
            } else {
                LOG.warn("Could not delete the old ZooKeeper file {}; it is tried again at the next start", file);
            }
        }
    }
}
