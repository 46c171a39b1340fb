package org.scrapycluster.embedded;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

import com.sun.management.UnixOperatingSystemMXBean;
import org.apache.kafka.common.utils.Exit;
import org.apache.zookeeper.util.ServiceUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the process, said plainly, when an embedded server gives up for good. Kafka's broker halts the JVM once every
 * log folder has failed (a full disk, a disk gone read-only, no file descriptor left to open a file) or it cannot start
 * (out of memory), and ZooKeeper exits it when it cannot write a snapshot or its transaction log: each left its own
 * stack trace and nothing more, and ZooKeeper's exit from the thread that starts it waited out the shutdown grace (60 s)
 * for that same thread. Installed by {@link EmbeddedStack#start}, this logs which server stopped, where its data is, how
 * much room that disk has left and what to do about it (room to make, file descriptors to allow, or the server's own
 * error to read), and halts at once with status {@value #STATUS} (docs/operations.md "A full disk"): without its broker
 * or ZooKeeper the process can do nothing more, and the requests its crawlers held return to their queues when their
 * leases end.
 */
final class ServerExits {

    /** The status of an error a service cannot go on from (docs/operations.md "Exit status"). */
    static final int STATUS = 70;

    private static final Logger LOG = LoggerFactory.getLogger(ServerExits.class);
    private static final long MIB = 1024 * 1024;
    /** Less room than this on the data folder's disk is taken for the cause: two of the broker's 64 MiB segments. */
    private static final long LITTLE_ROOM_MIB = 128;

    private ServerExits() {
    }

    /** Ends the process as said above when the broker keeping its log in {@code kafka}, or ZooKeeper in {@code zookeeper}, exits. */
    static void install(Path kafka, Path zookeeper) {
        Exit.Procedure broker = (status, message) -> end("Kafka broker", message, kafka);
        Exit.setHaltProcedure(broker);
        Exit.setExitProcedure(broker);
        ServiceUtils.setSystemExitProcedure(status -> end("ZooKeeper", "its exit status " + status, zookeeper));
    }

    /** The room left for {@code folder}, in MiB, or -1 when the file system does not say. */
    static long freeMebibytes(Path folder) {
        try {
            return Files.getFileStore(Files.exists(folder) ? folder : folder.getParent()).getUsableSpace() / MIB;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static void end(String server, String message, Path folder) {
        try {
            long free = freeMebibytes(folder);
            LOG.atError().addKeyValue("server", server).addKeyValue("folder", folder).addKeyValue("free_mib", free)
                    .log("The embedded {} stopped for good{}. Its data is in {}, on a disk with {} left: Scrapy Cluster stops. {}",
                            server, message == null ? "" : " (" + message + ")", folder, free < 0 ? "an unknown room" : free + " MiB",
                            advice(free, Descriptors.count(), Runtime.getRuntime().maxMemory() / MIB));
        } finally {
            // whatever went wrong in saying it (the process out of file descriptors, of memory), the process ends
            Runtime.getRuntime().halt(STATUS);
        }
    }

    /**
     * What to do about a server that stopped, from what the process has run short of: room on the data folder's disk
     * ({@code free} MiB, -1 when unknown), file descriptors ({@code descriptors}), or neither, when the cause is in the
     * server's own error logged before (a disk that failed or went read-only, a heap of {@code heapMib} MiB too small).
     */
    static String advice(long free, Descriptors descriptors, long heapMib) {
        if (free >= 0 && free < LITTLE_ROOM_MIB) {
            return "Make room on that disk (the broker's log takes the most: STANDALONE_KAFKA_RETENTION_BYTES bounds it)"
                    + " and start it again on the same folder";
        }
        if (descriptors.nearlyAllOpen()) {
            return "The process has " + descriptors.open() + " of its " + descriptors.limit() + " file descriptors open: raise"
                    + " its limit (ulimit -n, or the container's nofile) or lower CONCURRENT_REQUESTS, and start it again on the"
                    + " same folder";
        }
        return "The server's own error, logged before this line, says why (a disk that failed or went read-only, or a heap of "
                + heapMib + " MiB too small for the servers and the services: JAVA_OPTS=-Xmx…); mend that and start it again"
                + " on the same folder";
    }

    /**
     * The file descriptors the process has open and may have, when the JVM says (-1 each when it does not).
     *
     * @param open  open now
     * @param limit the most it may have open
     */
    record Descriptors(long open, long limit) {

        private static final double NEARLY_ALL = 0.95;

        static Descriptors count() {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix) {
                return read(unix::getOpenFileDescriptorCount, unix.getMaxFileDescriptorCount());
            }
            return new Descriptors(-1, -1);
        }

        /**
         * The count {@code open} gives, of {@code limit}. Counting them opens a directory ({@code /proc/self/fd}): with no
         * descriptor left that fails too, with the system's EMFILE (errno 24) or ENFILE (23), which is taken for all open.
         */
        static Descriptors read(LongSupplier open, long limit) {
            try {
                return new Descriptors(open.getAsLong(), limit);
            } catch (InternalError e) {
                String why = String.valueOf(e.getMessage());
                boolean noneLeft = why.contains("errno: 24 ") || why.contains("errno: 23 ");
                return noneLeft ? new Descriptors(limit, limit) : new Descriptors(-1, limit);
            }
        }

        /** Whether so many are open that opening a file or a socket may fail; not when either count is unknown. */
        boolean nearlyAllOpen() {
            return open >= 0 && limit > 0 && open >= limit * NEARLY_ALL;
        }
    }
}
