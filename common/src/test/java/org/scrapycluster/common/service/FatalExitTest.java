package org.scrapycluster.common.service;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOError;
import java.io.IOException;

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
}
