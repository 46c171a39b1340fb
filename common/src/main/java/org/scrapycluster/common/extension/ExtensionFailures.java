package org.scrapycluster.common.extension;

import java.lang.reflect.Modifier;

import org.scrapycluster.common.cli.BuildVersion;
import org.scrapycluster.common.service.FatalExit;

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
        if (FatalExit.jvmFailed(failure)) {
            throw (VirtualMachineError) failure;
        }
    }

    /**
     * Why {@code type} cannot be made by its public constructor without arguments, as a start-up error says it: a class
     * that is not public (an extension walk's package-private class was said to have no such constructor), abstract, or
     * an inner class that needs its outer instance, else one without that constructor.
     */
    public static String unconstructable(Class<?> type) {
        int modifiers = type.getModifiers();
        if (!Modifier.isPublic(modifiers)) {
            return "is not public: make the class public, with a public constructor without arguments";
        }
        if (Modifier.isAbstract(modifiers)) {
            return "is abstract: name a class that can be made";
        }
        if (type.isMemberClass() && !Modifier.isStatic(modifiers)) {
            return "is an inner class, made only with an instance of its outer class: make it static";
        }
        return "has no public constructor without arguments";
    }

    /**
     * {@code failure} as a log line or a start-up error tells it: its class and message, and when it is a {@link LinkageError}
     * of an extension's making what most likely caused it (docs/extending.md, "When an extension fails"): a jar built
     * against another version of the API, a library its jar lacks, or a newer Java. The same text as
     * {@code failure.toString()} for any other failure, and for an error of a static initializer.
     */
    public static String described(Throwable failure) {
        return failure + linkageHint(failure);
    }

    private static String linkageHint(Throwable failure) {
        if (failure instanceof UnsupportedClassVersionError) {
            return " (the extension was compiled for a newer Java than this JVM's, Java " + Runtime.version().feature()
                    + ": compile it with --release " + Runtime.version().feature() + " or run the service on a newer Java)";
        }
        if (failure instanceof IncompatibleClassChangeError || failure instanceof NoClassDefFoundError) {
            return " (a class, method or field the extension was compiled against is missing or different here: build it"
                    + " against the API of this Scrapy Cluster, " + BuildVersion.current() + ", and put the libraries it needs"
                    + " that the service lacks in its jar)";
        }
        return "";
    }
}
