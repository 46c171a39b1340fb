package org.scrapycluster.common.extension;

/**
 * Which failures of an extension's own code a service survives (docs/extending.md, "When an extension fails"): every
 * exception, and every error its code raises — an assertion, a class its jar lacks ({@link NoClassDefFoundError}), a
 * runaway recursion ({@link StackOverflowError}, unwound by the time it is caught). Not the JVM itself failing (out of
 * memory, an internal error): after that nothing the service holds can be trusted, and the error goes on up.
 */
public final class ExtensionFailures {

    private ExtensionFailures() {
    }

    /**
     * Throws {@code failure} on when the JVM itself failed; returns when the service may survive it. Called first
     * in a {@code catch (Throwable …)} around a call into an extension.
     */
    public static void rethrowIfFatal(Throwable failure) {
        if (failure instanceof VirtualMachineError fatal && !(fatal instanceof StackOverflowError)) {
            throw fatal;
        }
    }
}
