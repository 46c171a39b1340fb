package org.scrapycluster.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Processes a test runs beside the JVM ({@code redis-server}, {@code redis-sentinel}), in a temporary directory of
 * their own, their output discarded: all killed on close, and with the JVM should a test never close them, so that
 * none outlives the test run.
 */
public final class ChildProcesses implements AutoCloseable {

    private final DataDirectory dir;
    private final List<Process> processes = new CopyOnWriteArrayList<>();
    private final Thread hook;

    /** @param name names the directory and the shutdown hook */
    public ChildProcesses(String name) {
        this.dir = DataDirectory.temporary(name);
        this.hook = new Thread(this::killAll, name + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The processes' directory, removed on close. */
    public Path dir() {
        return dir.path();
    }

    /**
     * Starts {@code command}, its output discarded.
     *
     * @throws UncheckedIOException naming the program when it cannot be run (not installed)
     */
    public Process start(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            processes.add(process);
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.getFirst() + " (is its Debian package installed?)", e);
        }
    }

    /** Kills {@code process} with SIGKILL, as a crash does, and waits for it to end. */
    public static void kill(Process process) {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops {@code process} with SIGSTOP, as a paused VM or a partition stops a server: its connections stay open, unanswered. */
    public static void pause(Process process) {
        signal(process, "-STOP");
    }

    /** Lets a {@linkplain #pause paused} {@code process} go on (SIGCONT): it answers what it was sent meanwhile. */
    public static void resume(Process process) {
        signal(process, "-CONT");
    }

    private static void signal(Process process, String signal) {
        try {
            int status = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start().waitFor();
            if (status != 0) {
                throw new IllegalStateException("kill " + signal + " " + process.pid() + " ended with " + status);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling " + process.pid(), e);
        }
    }

    private void killAll() {
        processes.forEach(Process::destroyForcibly);
        processes.forEach(ChildProcesses::kill);
    }

    @Override
    public void close() {
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running
        }
        dir.release();
    }
}
