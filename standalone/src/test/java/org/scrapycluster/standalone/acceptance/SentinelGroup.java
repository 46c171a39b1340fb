package org.scrapycluster.standalone.acceptance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.awaitility.Awaitility;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.ChildProcesses;
import org.scrapycluster.embedded.FreePorts;

/**
 * A Sentinel-managed Redis on 127.0.0.1 made of real processes: a master, one replica and three
 * {@code redis-sentinel}s (Debian's package) with short timeouts (down after 1 s), so that killing
 * the master promotes the replica within seconds. Every process is stopped on close, or with the JVM.
 */
final class SentinelGroup implements AutoCloseable {

    static final String MASTER_NAME = "scmaster";
    private static final Duration START = Duration.ofSeconds(30);

    private final ChildProcesses processes = new ChildProcesses("sentinel-group");
    /**
     * Five ports, none twice: a free port picked again may come back, and a Sentinel given the master's port would fail
     * to bind it while the master answered for it (the likely cause of a CI run that failed waiting for "sentinels=3").
     */
    private final List<Integer> ports = distinctFreePorts(5);
    private final int masterPort = ports.get(0);
    private final int replicaPort = ports.get(1);
    private final List<Integer> sentinelPorts = ports.subList(2, 5);
    private Process master;

    private SentinelGroup() {
    }

    /** Starts the master and the replica, waits until the replica is in sync, then the Sentinels and until they see both. */
    static SentinelGroup start() {
        SentinelGroup group = new SentinelGroup();
        try {
            group.master = group.server("master", group.masterPort);
            group.server("replica", group.replicaPort, "--replicaof", "127.0.0.1", Integer.toString(group.masterPort));
            Awaitility.await().atMost(START).ignoreExceptions().until(() -> group.info(group.replicaPort, "replication")
                    .contains("master_link_status:up"));
            for (int i = 0; i < group.sentinelPorts.size(); i++) {
                group.sentinel(i, group.sentinelPorts.get(i));
            }
            for (int port : group.sentinelPorts) {
                Awaitility.await().atMost(START).ignoreExceptions().until(() -> group.info(port, "sentinel")
                        .contains("status=ok,address=127.0.0.1:" + group.masterPort + ",slaves=1,sentinels=3"));
            }
            return group;
        } catch (RuntimeException e) {
            group.close();
            throw e;
        }
    }

    /** The value of {@code REDIS_SENTINELS}. */
    String sentinels() {
        return sentinelPorts.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    /** Kills the master with SIGKILL, as a crash does. */
    void killMaster() {
        ChildProcesses.kill(master);
    }

    /** Stops the master with SIGSTOP, as a paused VM or a partition does: its connections stay open, unanswered. */
    void pauseMaster() {
        ChildProcesses.pause(master);
    }

    /** Lets a paused master go on (SIGCONT): it answers what it was sent meanwhile, until the Sentinels demote it. */
    void resumeMaster() {
        ChildProcesses.resume(master);
    }

    /** The replica's port: the master's once the Sentinels have promoted it. */
    int replicaPort() {
        return replicaPort;
    }

    /** Waits until the replica has every write the master acknowledged so far. */
    void awaitReplicaInSync() {
        Awaitility.await().atMost(START).ignoreExceptions().until(() -> offset(masterPort) == offset(replicaPort));
    }

    /** Whether the Sentinels have promoted the replica. */
    boolean replicaPromoted() {
        return info(replicaPort, "replication").contains("role:master");
    }

    private long offset(int port) {
        for (String line : info(port, "replication").split("\r?\n")) {
            if (line.startsWith(port == masterPort ? "master_repl_offset:" : "slave_repl_offset:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return -1;
    }

    private String info(int port, String section) {
        try (RedisConnection redis = RedisConnection.open(new RedisEndpoint("127.0.0.1", port, 0, null, false, Duration.ofSeconds(2)))) {
            return redis.sync().info(section);
        }
    }

    private Process server(String name, int port, String... extra) {
        Path data = processes.dir().resolve(name);
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--dir", mkdirs(data).toString(), "--save", "", "--appendonly", "no", "--loglevel", "warning",
                "--logfile", data.resolve("redis.log").toString()));
        command.addAll(List.of(extra));
        return run(command, port);
    }

    private void sentinel(int index, int port) {
        Path data = mkdirs(processes.dir().resolve("sentinel-" + index));
        Path config = data.resolve("sentinel.conf");
        String text = String.join("\n",
                "port " + port,
                "bind 127.0.0.1",
                "dir " + data,
                "logfile " + data.resolve("sentinel.log"),
                "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + masterPort + " 2",
                "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                "sentinel failover-timeout " + MASTER_NAME + " 5000",
                "sentinel parallel-syncs " + MASTER_NAME + " 1",
                "");
        try {
            Files.writeString(config, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        run(List.of("redis-sentinel", config.toString()), port);
    }

    private Process run(List<String> command, int port) {
        Process process = processes.start(command);
        Awaitility.await().atMost(START).ignoreExceptions().until(() -> !info(port, "server").isEmpty());
        return process;
    }

    private static List<Integer> distinctFreePorts(int count) {
        Set<Integer> ports = new LinkedHashSet<>();
        while (ports.size() < count) {
            ports.add(FreePorts.pick());
        }
        return List.copyOf(ports);
    }

    private static Path mkdirs(Path path) {
        try {
            return Files.createDirectories(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        processes.close();
    }
}
