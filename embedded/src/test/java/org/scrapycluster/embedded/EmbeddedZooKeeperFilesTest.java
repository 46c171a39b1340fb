package org.scrapycluster.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the embedded ZooKeeper keeps its files in a kept data folder, and how many (docs/operations.md "The embedded
 * ZooKeeper's files").
 */
class EmbeddedZooKeeperFilesTest {

    @TempDir
    Path folder;

    @Test
    void theLogIsInLogAndTheSnapshotsInSnapshots() throws Exception {
        write("/written", "yaml");

        assertTrue(files("log").stream().allMatch(name -> name.startsWith("log.")), "log/: " + files("log"));
        assertFalse(files("log").isEmpty());
        assertTrue(files("snapshots").stream().allMatch(name -> name.startsWith("snapshot.")), "snapshots/: " + files("snapshots"));
        assertFalse(files("snapshots").isEmpty());
    }

    /** Builds before 2026-12-06 kept them the other way round: a start on such a folder finds its nodes. */
    @Test
    void aFolderWithTheFilesTheOtherWayRoundKeepsItsNodes() throws Exception {
        write("/written", "yaml");
        swap("log", "snapshots", "log.");
        swap("snapshots", "log", "snapshot.");

        assertEquals("yaml", read("/written"));
        assertTrue(files("log").stream().allMatch(name -> name.startsWith("log.")), "log/: " + files("log"));
    }

    /** ZooKeeper's own purge prints each file it deletes on standard output, outside the log's format: none is printed. */
    @Test
    void startsKeepTheNewestSnapshotsOnlyAndPrintNothing() throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            for (int start = 0; start < 6; start++) {
                write("/start-" + start, "yaml");
            }
        } finally {
            System.setOut(out);
        }

        assertTrue(files("snapshots").size() <= 4, "each start snapshots, and keeps three before it: " + files("snapshots"));
        assertEquals("yaml", read("/start-0"));
        assertFalse(printed.toString(StandardCharsets.UTF_8).contains("Removing file"), "(tests log on standard output too)");
    }

    /** Its log files are preallocated by the megabyte, not ZooKeeper's 64: a few nodes, not hundreds of megabytes apparent. */
    @Test
    void aLogFileIsPreallocatedByTheMegabyte() throws Exception {
        write("/written", "yaml");

        for (String name : files("log")) {
            long size = Files.size(folder.resolve("log").resolve("version-2").resolve(name));
            assertTrue(size < 2 << 20, name + ": " + size + " bytes");
        }
    }

    private void write(String node, String data) throws Exception {
        withClient(zk -> zk.create(node, data.getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
    }

    private String read(String node) throws Exception {
        String[] data = new String[1];
        withClient(zk -> data[0] = new String(zk.getData(node, false, null), StandardCharsets.UTF_8));
        return data[0];
    }

    private interface ClientCall {
        void run(ZooKeeper zk) throws Exception;
    }

    /** Starts a server on the folder, runs {@code call} with a client of it, and stops both. */
    private void withClient(ClientCall call) throws Exception {
        try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start(0, DataDirectory.kept(folder))) {
            ZooKeeper zk = ZooKeeperClients.connected(server.connectString());
            try {
                call.run(zk);
            } finally {
                zk.close();
            }
        }
    }

    private List<String> files(String child) throws IOException {
        try (Stream<Path> files = Files.list(folder.resolve(child).resolve("version-2"))) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    private void swap(String from, String to, String prefix) throws IOException {
        Path target = Files.createDirectories(folder.resolve(to).resolve("version-2"));
        for (String name : files(from)) {
            if (name.startsWith(prefix)) {
                Files.move(folder.resolve(from).resolve("version-2").resolve(name), target.resolve(name));
            }
        }
    }
}
