package org.scrapycluster.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** Temporary data directories, and those a process killed outright left behind. */
class DataDirectoryTest {

    @Test
    void aDirectoryLeftByAProcessThatIsGoneIsRemovedAndTheOthersAreKept() throws IOException, InterruptedException {
        String prefix = "data-directory-test-" + System.nanoTime() + "-";
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path left = marked(prefix, gone.pid());
        Path running = marked(prefix, ProcessHandle.current().pid());
        Path unmarked = Files.createTempDirectory(prefix);

        DataDirectory made = DataDirectory.temporaryOfThisProcess(prefix);
        try {
            assertFalse(Files.exists(left), "its process is gone");
            assertTrue(Files.exists(running.resolve("data")), "its process runs");
            assertTrue(Files.exists(unmarked), "no process named");
            assertEquals(Long.toString(ProcessHandle.current().pid()), Files.readString(made.path().resolve(DataDirectory.OWNER)));
        } finally {
            made.release();
            new DataDirectory(running, true).release();
            new DataDirectory(unmarked, true).release();
        }
    }

    private static Path marked(String prefix, long pid) throws IOException {
        Path directory = Files.createTempDirectory(prefix);
        Files.writeString(directory.resolve(DataDirectory.OWNER), Long.toString(pid));
        Files.writeString(Files.createDirectories(directory.resolve("data")).resolve("file"), "kept?");
        return directory;
    }
}
