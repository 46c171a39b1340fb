package org.scrapycluster.common.extension;

/**
 * Runs a call into an extension with the extension's own class loader as the thread's context class loader, and puts
 * the thread's back after it. Libraries a plugin bundles find classes by that loader (Kafka's clients load a
 * serializer named in their properties by it, {@code DriverManager} looks for JDBC drivers with it): with the
 * service's there, a plugin's producer got the service's {@code StringSerializer}, not an instance of its own
 * {@code Serializer}, and its driver was not found. Only the call itself runs so, not what its future does later on
 * other threads (docs/extending.md).
 */
public final class OwnClassLoader {

    /** A call into an extension. */
    @FunctionalInterface
    public interface Call<V, E extends Throwable> {
        V call() throws E;
    }

    private OwnClassLoader() {
    }

    /** {@code call}'s answer, run with {@code extension}'s class loader as the context class loader. */
    public static <V, E extends Throwable> V call(Object extension, Call<V, E> call) throws E {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        ClassLoader own = extension.getClass().getClassLoader();
        if (own == before || own == null) {
            return call.call();
        }
        thread.setContextClassLoader(own);
        try {
            return call.call();
        } finally {
            thread.setContextClassLoader(before);
        }
    }
}
