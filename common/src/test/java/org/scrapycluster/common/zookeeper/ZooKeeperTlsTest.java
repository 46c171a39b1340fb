package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.testing.ResourceFixtures;

/**
 * ZooKeeper's secure client port, reached with ZOOKEEPER_TLS: a real ZooKeeper server speaking TLS only and asking for
 * client certificates, with the test CA's certificate for 127.0.0.1 and localhost (the fixtures of {@code tls/}). The server
 * runs in a JVM of its own: ZooKeeper's server turns its TLS configuration into system properties, which the clients
 * of this JVM would read as theirs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ZooKeeperTlsTest {

    private static final Duration START = Duration.ofSeconds(60);

    private Path dir;
    private Process server;
    private String connectString;

    @BeforeAll
    void startServer(@TempDir Path folder) throws Exception {
        dir = folder;
        ResourceFixtures.write(dir.resolve("server.pem"), "tls/server.key", "tls/server.crt");
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path config = dir.resolve("zoo.cfg");
        Files.writeString(config, String.join("\n",
                "dataDir=" + dir.resolve("data"),
                "tickTime=2000",
                "secureClientPort=" + port,
                "serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory",
                "ssl.keyStore.location=" + dir.resolve("server.pem"),
                "ssl.keyStore.type=PEM",
                "ssl.trustStore.location=" + fixture("ca.crt"),
                "ssl.trustStore.type=PEM",
                "ssl.clientAuth=need",
                "admin.enableServer=false", ""));
        server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ZooKeeperServerMain.class.getName(), config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("server.log").toFile()).start();
        connectString = "127.0.0.1:" + port;
        long deadline = System.nanoTime() + START.toNanos();
        while (!listening(port)) {
            assertTrue(server.isAlive() && System.nanoTime() < deadline,
                    "ZooKeeper did not start: " + Files.readString(dir.resolve("server.log")));
            Thread.sleep(100);
        }
    }

    @AfterAll
    void stopServer() throws InterruptedException {
        if (server != null) {
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    @Test
    void aClientTrustingTheCaAndPresentingItsCertificateReadsAndWrites() throws Exception {
        ResourceFixtures.write(dir.resolve("client.pem"), "tls/client.key", "tls/client.crt");
        ZooKeeperConnection connection = connection(Map.of("ZOOKEEPER_TLS_CA_FILE", fixture("ca.crt"),
                "ZOOKEEPER_TLS_KEYSTORE_FILE", dir.resolve("client.pem").toString()));
        assertTrue(connection.toString().contains("TLS"), connection.toString());
        try (CuratorFramework client = connection.newClient()) {
            client.start();
            assertTrue(client.blockUntilConnected(30, TimeUnit.SECONDS), "connected");
            client.create().orSetData().forPath("/tls-test", "v".getBytes(StandardCharsets.UTF_8));
            assertArrayEquals("v".getBytes(StandardCharsets.UTF_8), client.getData().forPath("/tls-test"));
        }
    }

    @Test
    void withoutTheCaOrWithoutACertificateTheClientIsRefused() throws Exception {
        ResourceFixtures.write(dir.resolve("client.pem"), "tls/client.key", "tls/client.crt");
        for (Map<String, String> values : List.of(
                Map.of("ZOOKEEPER_TLS_CA_FILE", fixture("ca.crt")), // the server asks for a certificate
                Map.of("ZOOKEEPER_TLS_KEYSTORE_FILE", dir.resolve("client.pem").toString()))) { // the JVM's trust store
            try (CuratorFramework client = connection(values).newClient()) {
                client.start();
                assertFalse(client.blockUntilConnected(3, TimeUnit.SECONDS), String.valueOf(values.keySet()));
            }
        }
    }

    @Test
    void aTlsFileWithoutZooKeeperTlsOrThatCannotBeReadStopsTheStart() {
        SettingsException off = assertThrows(SettingsException.class, () -> ZooKeeperConnection.of(
                Settings.defaults("redis-monitor").withLauncherValues(Map.of("ZOOKEEPER_TLS_CA_FILE", "/etc/hosts"))));
        assertTrue(off.getMessage().contains("ZOOKEEPER_TLS must be true"), off.getMessage());
        SettingsException missing = assertThrows(SettingsException.class, () -> connection(Map.of("ZOOKEEPER_TLS_CA_FILE",
                dir.resolve("none.crt").toString())));
        assertTrue(missing.getMessage().contains("ZOOKEEPER_TLS_CA_FILE") && missing.getMessage().contains("no such file"),
                missing.getMessage());
    }

    /** A client of the server with ZOOKEEPER_TLS and {@code values}, patient for a few seconds only. */
    private ZooKeeperConnection connection(Map<String, String> values) {
        Map<String, String> all = new LinkedHashMap<>(values);
        all.put("ZOOKEEPER_TLS", "true");
        all.put("ZOOKEEPER_HOSTS", connectString);
        ZooKeeperConnection connection = ZooKeeperConnection.of(Settings.defaults("redis-monitor").withLauncherValues(all));
        return new ZooKeeperConnection(connection.connectString(), Duration.ofSeconds(10), Duration.ofSeconds(3),
                Duration.ofMillis(200), Duration.ofSeconds(1)).over(connection.tls());
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String text(String name) {
        return ResourceFixtures.text("tls/" + name);
    }

    /** The fixture {@code tls/<name>} as a file. */
    private String fixture(String name) throws IOException {
        Path file = dir.resolve(name);
        if (!Files.exists(file)) {
            Files.writeString(file, text(name));
        }
        return file.toString();
    }
}
