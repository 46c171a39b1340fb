package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.redismonitor.zookeeper.ZooKeeperCommand;

import picocli.CommandLine;

/** {@code zookeeper push} and {@code pull} run in process against the shared ZooKeeper, on a node of their own. */
@ExtendWith(SharedStack.class)
class ZooKeeperCommandsTest {

    private String zookeeper;
    private String parent;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void node(EmbeddedStack stack) {
        zookeeper = stack.zookeeperConnect();
        parent = "/" + MonitorFixture.unique("push") + "/crawler/";
    }

    @Test
    void pushWritesAValidFileAndSaysWhatChanged(@TempDir Path files) throws IOException, ZooKeeperConfigException {
        Path before = write(files, "before.yml", Texts.resource("zookeeper/before.yml"));
        Path after = write(files, "after.yml", Texts.resource("zookeeper/after-blacklist-update.yml"));
        assertEquals(0, run("push", before.toString()), err.toString());
        assertEquals(List.of("Pushed " + before + " to " + parent + "cluster at " + zookeeper,
                "  blacklist: key added (crawlers replace their blacklist with it)",
                "  domains.dmoztools.net: added (window 60, hits 60, scale 1.0)"), lines(out));
        out.getBuffer().setLength(0);

        assertEquals(0, run("push", after.toString()), err.toString());
        assertEquals(List.of("Pushed " + after + " to " + parent + "cluster at " + zookeeper,
                "  blacklist: added ebay.com",
                "  domains.cnn.com: added (window 60, hits 15, scale 0.9)"), lines(out));
        assertEquals(Texts.resource("zookeeper/after-blacklist-update.yml"), nodeText());
        out.getBuffer().setLength(0);

        assertEquals(0, run("push", after.toString()));
        assertEquals("  no change", lines(out).get(1));
    }

    @Test
    void pushRefusesAnInvalidFileListingEveryProblem(@TempDir Path files) throws IOException, ZooKeeperConfigException {
        Path valid = write(files, "valid.yml", Texts.resource("zookeeper/before.yml"));
        assertEquals(0, run("push", valid.toString()));
        Path invalid = write(files, "invalid.yml", Texts.resource("zookeeper/invalid.yml"));

        assertEquals(1, run("push", invalid.toString()));
        List<String> problems = lines(err);
        assertEquals(invalid + " was not pushed:", problems.get(0));
        assertTrue(problems.stream().anyMatch(line -> line.startsWith("  blacklist[0]: ")), problems.toString());
        assertTrue(problems.stream().anyMatch(line -> line.startsWith("  domains.cnn.com.hits: ")), problems.toString());
        assertTrue(problems.stream().anyMatch(line -> line.startsWith("  domains.bbc.co.uk.scale: ")), problems.toString());
        assertTrue(problems.stream().anyMatch(line -> line.startsWith("  domains.extra: ")), problems.toString());
        assertEquals(Texts.resource("zookeeper/before.yml"), nodeText(), "nothing was pushed");
    }

    @Test
    void pullPrintsTheNodeAndWipeEmptiesIt(@TempDir Path files) throws IOException, ZooKeeperConfigException {
        Path config = write(files, "config.yml", Texts.resource("zookeeper/after-removals.yml"));
        assertEquals(0, run("push", config.toString()));
        out.getBuffer().setLength(0);

        assertEquals(0, run("pull"));
        assertEquals(Texts.resource("zookeeper/after-removals.yml"), out.toString());
        out.getBuffer().setLength(0);

        assertEquals(0, run("push", "--wipe"));
        assertEquals(List.of("Wiped " + parent + "cluster at " + zookeeper, "  blacklist: key removed (crawlers keep the blacklist they have)",
                "  domains.cnn.com: removed"), lines(out));
        assertEquals("", nodeText());
        out.getBuffer().setLength(0);
        assertEquals(0, run("pull"));
        assertEquals("", out.toString());
        assertEquals(parent + "cluster is empty", lines(err).get(0));
    }

    @Test
    void pullOfANodeNeverPushedSaysSoAndCreatesNothing() throws Exception {
        assertEquals(1, run("pull"));

        assertEquals("", out.toString());
        assertEquals(List.of(parent + "cluster does not exist at " + zookeeper), lines(err));
        try (CuratorFramework client = ZooKeeperConnection.to(zookeeper).newClient()) {
            client.start();
            client.blockUntilConnected();
            assertNull(client.checkExists().forPath(parent.substring(0, parent.indexOf('/', 1))), "pull created the path");
        }
    }

    @Test
    void aSettingsFileOfEveryServiceIsTaken(@TempDir Path files) throws IOException {
        Path shared = write(files, "cluster.yml", "ZOOKEEPER_ID: shared\nSTANDALONE_CRAWLERS: 2\nREST_API_KEYS: [k1]\n");

        assertEquals(1, new CommandLine(new ZooKeeperCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("pull", "--config", shared.toString(), "-z", zookeeper, "-p", parent, "--log-level", "WARNING"));

        assertEquals(List.of(parent + "shared does not exist at " + zookeeper), lines(err), "the file's ZOOKEEPER_ID applies");
    }

    @Test
    void pushOfAMissingFileNamesItAsMissing(@TempDir Path files) {
        Path absent = files.resolve("absent.yml");

        assertEquals(1, run("push", absent.toString()));

        assertEquals(List.of("Cannot read " + absent + ": no such file"), lines(err));
    }

    @Test
    void aPathOrAddressZooKeeperWouldRefuseIsAUsageErrorWithoutAStackTrace() {
        int status = new CommandLine(new ZooKeeperCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("pull", "-z", zookeeper, "-p", "crawler/", "--log-level", "WARNING");

        assertEquals(2, status);
        assertTrue(err.toString().startsWith("Not a ZooKeeper node path: crawler/all (Path must start with / character)\nUsage: "),
                err.toString());
        err.getBuffer().setLength(0);

        assertEquals(2, new CommandLine(new ZooKeeperCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("pull", "-z", "", "--log-level", "WARNING"));
        assertTrue(err.toString().startsWith("Not a ZooKeeper address: '' (the ZooKeeper address is empty)\nUsage: "), err.toString());
        err.getBuffer().setLength(0);

        assertEquals(2, new CommandLine(new ZooKeeperCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("pull", "--set", "ZOOKEEPER_HOSTS=a:b:c", "--log-level", "WARNING"));
        assertTrue(err.toString().startsWith("Not a ZooKeeper address: 'a:b:c' ('a:b:c' in 'a:b:c' is no host or host:port"
                + " (zk-1:2181, 10.0.0.5:2181))\nUsage: "), err.toString());
        err.getBuffer().setLength(0);

        assertEquals(2, new CommandLine(new ZooKeeperCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("pull", "-z", zookeeper + ",", "--log-level", "WARNING"));
        assertTrue(err.toString().startsWith("Not a ZooKeeper address: '" + zookeeper + ",' ('' in '" + zookeeper + ",' is no host"),
                err.toString());
    }

    /** The tool's own line is all that is said: the client's warning of each refused attempt, with its stack trace, is left out. */
    @Test
    void aZooKeeperThatIsNotThereIsOneLineAndStatus1(@TempDir Path logs) throws IOException {
        String absent = "127.0.0.1:" + FreePorts.pick();
        int status = new CommandLine(new ZooKeeperCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("pull", "-z", absent, "--set", "LOG_STDOUT=false", "--set", "LOG_DIR=" + logs);

        assertEquals(1, status);
        assertEquals(List.of("Unable to load Zookeeper config: ZooKeeper at " + absent + " does not answer"), lines(err));
        assertEquals("", out.toString());
        assertEquals(List.of(), Files.readAllLines(logs.resolve("zookeeper.log")), "nothing logged");
    }

    /** Nor is ZooKeeper's client's ERROR, with its stack trace, for each host that does not resolve. */
    @Test
    void aZooKeeperWhoseHostDoesNotResolveIsOneLineAndStatus1(@TempDir Path logs) throws IOException {
        String absent = "zk.invalid:2181";
        int status = new CommandLine(new ZooKeeperCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("push", "--wipe", "--set", "ZOOKEEPER_HOSTS=" + absent, "--set", "LOG_STDOUT=false", "--set", "LOG_DIR=" + logs);

        assertEquals(1, status);
        List<String> said = lines(err);
        assertEquals(1, said.size(), said.toString());
        assertTrue(said.getFirst().startsWith("Unable to store Zookeeper config: ZooKeeper at " + absent + " cannot be reached: zk.invalid"),
                said.getFirst());
        assertEquals("", out.toString());
        assertEquals(List.of(), Files.readAllLines(logs.resolve("zookeeper.log")), "nothing logged");
    }

    @Test
    void pushWantsAFileOrWipe() {
        assertEquals(2, run("push"));
        assertTrue(err.toString().contains("Give either a FILE to push or --wipe"), err.toString());
    }

    private int run(String... args) {
        List<String> command = new ArrayList<>(List.of(args));
        command.addAll(List.of("-z", zookeeper, "-p", parent, "-i", "cluster", "--log-level", "WARNING"));
        return new CommandLine(new ZooKeeperCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute(command.toArray(String[]::new));
    }

    private String nodeText() throws ZooKeeperConfigException {
        try (ZooKeeperConfigStore node = ZooKeeperConfigStore.open(ZooKeeperConnection.to(zookeeper), parent + "cluster")) {
            return node.readText();
        }
    }

    private static Path write(Path directory, String name, String text) throws IOException {
        return Files.writeString(directory.resolve(name), text);
    }

    private static List<String> lines(StringWriter writer) {
        return writer.toString().lines().toList();
    }
}
