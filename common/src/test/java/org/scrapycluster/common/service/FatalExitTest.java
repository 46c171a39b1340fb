package org.scrapycluster.common.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOError;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** Which errors of a service's own code end the service. */
class FatalExitTest {

    @Test
    void theJvmFailingAndAClassOrMethodTheJarLacksEndTheService() {
        assertTrue(FatalExit.endsTheService(new OutOfMemoryError("Java heap space")));
        assertTrue(FatalExit.endsTheService(new InternalError("a JVM failure")));
        assertTrue(FatalExit.endsTheService(new NoSuchMethodError("'void Gone.method()'")));
        assertTrue(FatalExit.endsTheService(new NoClassDefFoundError("Gone")));
        assertTrue(FatalExit.endsTheService(new ExceptionInInitializerError("a static initializer failed")));
    }

    @Test
    void onlyTheJvmItselfFailingIsAJvmFailure() {
        assertTrue(FatalExit.jvmFailed(new OutOfMemoryError("Java heap space")));
        assertTrue(FatalExit.jvmFailed(new InternalError("a JVM failure")));
        assertFalse(FatalExit.jvmFailed(new StackOverflowError()));
        assertFalse(FatalExit.jvmFailed(new NoSuchMethodError("'void Gone.method()'")), "a class of one jar, not the JVM");
        assertFalse(FatalExit.jvmFailed(new IllegalStateException("a bug")));
    }

    @Test
    void aStackOverflowOtherErrorsAndExceptionsDoNot() {
        assertFalse(FatalExit.endsTheService(new StackOverflowError()), "unwound by the time it is caught; perhaps one input's doing");
        assertFalse(FatalExit.endsTheService(new AssertionError("a broken invariant")));
        assertFalse(FatalExit.endsTheService(new IOError(new IOException("disk"))));
        assertFalse(FatalExit.endsTheService(new IllegalStateException("a bug")));
    }

    @Test
    void anErrorMetDuringAStopIsSaidThoughThatStopEndsTheProcess() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), FailingWhileStopping.class.getName()).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            do {
                line = out.readLine(); // after what the JVM may say first (Picked up JAVA_TOOL_OPTIONS: ...)
            } while (line != null && !line.equals("ready"));
            assertEquals("ready", line);
            // SIGTERM, as kill sends it: the stop begins (Process.destroy would close the streams read here)
            new ProcessBuilder("kill", "-TERM", Long.toString(child.pid())).start().waitFor();

            assertTrue(child.waitFor(1, TimeUnit.MINUTES));
            String said = out.lines().collect(Collectors.joining("\n"));
            assertTrue(said.contains("A worker failed with java.lang.OutOfMemoryError: Java heap space while the process was stopping,"
                    + " and its page is crawled again"), said);
        } finally {
            child.destroyForcibly();
        }
    }
}
