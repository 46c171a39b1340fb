package org.scrapycluster.redismonitor.zookeeper;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.logging.Logging;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException.Failure;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Which domain config node {@code zookeeper push / pull} work on, as the original
 * {@code file_pusher.py} takes it: {@code -z HOST:PORT}, {@code -i ID}, {@code -p PATH}, each
 * defaulting to the Redis monitor's {@code ZOOKEEPER_HOSTS}, {@code ZOOKEEPER_ID} and
 * {@code ZOOKEEPER_ASSIGN_PATH} (so {@code /scrapy-cluster/crawler/all} on localhost:2181).
 */
public final class ZooKeeperNodeOptions {

    /** The ZooKeeper client's loggers, whose warning of each connection attempt refused carries a stack trace. */
    private static final String ZOOKEEPER_CLIENT = "org.apache.zookeeper";

    @Mixin
    SettingsOptions settingsOptions;

    @Option(names = {"-z", "--zookeeper"}, paramLabel = "HOST:PORT",
            description = "ZooKeeper to connect to (default: ZOOKEEPER_HOSTS).")
    String hosts;

    @Option(names = {"-i", "--id"}, paramLabel = "ID", description = "Name of the config node (default: ZOOKEEPER_ID, all).")
    String id;

    @Option(names = {"-p", "--path"}, paramLabel = "PATH",
            description = "Parent path of the config node (default: ZOOKEEPER_ASSIGN_PATH, /scrapy-cluster/crawler/).")
    String path;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    private Settings settings;

    /** The Redis monitor's settings from the options; logging is set up from them on first use. */
    Settings settings() {
        if (settings == null) {
            settings = settingsOptions.loadForTool("redis-monitor");
            Logging.configureTool(withQuietClient(settings), "zookeeper");
        }
        return settings;
    }

    /**
     * The settings to log with: the ZooKeeper client's warnings left out, its errors kept, unless {@code LOG_LEVELS} gives
     * it a level other than the default. The tool says itself, in one line, when ZooKeeper does not answer; the client
     * would first warn of the refused attempts, with a stack trace.
     */
    private static Settings withQuietClient(Settings settings) {
        Map<String, Object> levels = new LinkedHashMap<>(settings.getMap("LOG_LEVELS"));
        Object byDefault = Settings.defaults(settings.service()).getMap("LOG_LEVELS").get(ZOOKEEPER_CLIENT);
        if (!Objects.equals(levels.get(ZOOKEEPER_CLIENT), byDefault)) {
            return settings;
        }
        levels.put(ZOOKEEPER_CLIENT, "ERROR");
        return settings.withLauncherValues(Map.of("LOG_LEVELS", levels));
    }

    /** The node's full path. */
    String nodePath() {
        return (path != null ? path : settings().getString("ZOOKEEPER_ASSIGN_PATH"))
                + (id != null ? id : settings().getString("ZOOKEEPER_ID"));
    }

    /** The ZooKeeper connect string. */
    String hosts() {
        return hosts != null ? hosts : settings().getString("ZOOKEEPER_HOSTS");
    }

    /**
     * A store of the node; an empty address or a node path ZooKeeper would refuse is a usage error.
     *
     * @throws ZooKeeperConfigException of {@code failure} when no host of the address resolves
     */
    ZooKeeperConfigStore open(Failure failure) throws ZooKeeperConfigException {
        ZooKeeperConnection connection;
        try {
            connection = ZooKeeperConnection.to(hosts());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), "Not a ZooKeeper address: '" + hosts() + "' (" + e.getMessage() + ")");
        }
        // the same address with ZOOKEEPER_DIGEST and ZOOKEEPER_TLS, which a SettingsException names when they cannot be used
        connection = ZooKeeperConnection.of(settings(), connection.connectString());
        Optional<String> unresolvable = connection.whyNoHostResolves();
        if (unresolvable.isPresent()) {
            throw new ZooKeeperConfigException(failure, "ZooKeeper at " + hosts() + " cannot be reached: " + unresolvable.get(), null);
        }
        String nodePath = nodePath();
        try {
            return ZooKeeperConfigStore.open(connection, nodePath);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), "Not a ZooKeeper node path: " + nodePath + " (" + e.getMessage() + ")");
        }
    }
}
