package org.scrapycluster.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.kafka.common.utils.Exit;
import org.apache.zookeeper.util.ServiceUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the process, said plainly, when an embedded server gives up for good. Kafka's broker halts the JVM once every
 * log folder has failed (a full disk, a disk gone read-only), and ZooKeeper exits it when it cannot write a snapshot
 * or its transaction log: each left its own stack trace and nothing more, and ZooKeeper's exit from the thread that
 * starts it waited out the shutdown grace (60 s) for that same thread. Installed by {@link EmbeddedStack#start}, this
 * logs which server stopped, where its data is and how much room that disk has left, and halts at once with status
 * {@value #STATUS} (docs/operations.md "A full disk"): without its broker or ZooKeeper the process can do nothing more,
 * and the requests its crawlers held return to their queues when their leases end.
 */
final class ServerExits {

    /** The status of an error a service cannot go on from (docs/operations.md "Exit status"). */
    static final int STATUS = 70;

    private static final Logger LOG = LoggerFactory.getLogger(ServerExits.class);
    private static final long MIB = 1024 * 1024;

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
        long free = freeMebibytes(folder);
        LOG.atError().addKeyValue("server", server).addKeyValue("folder", folder).addKeyValue("free_mib", free)
                .log("The embedded {} stopped for good ({}). Its data is in {}, on a disk with {} left: Scrapy Cluster stops."
                        + " Make room on that disk (the broker's log takes the most: STANDALONE_KAFKA_RETENTION_BYTES bounds it)"
                        + " and start it again on the same folder", server, message == null ? "no reason given" : message, folder,
                        free < 0 ? "an unknown room" : free + " MiB");
        Runtime.getRuntime().halt(STATUS);
    }
}
