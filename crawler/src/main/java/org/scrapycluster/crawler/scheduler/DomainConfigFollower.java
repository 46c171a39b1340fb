package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.scrapycluster.common.zookeeper.ConfigProblem;
import org.scrapycluster.common.zookeeper.DomainConfig;
import org.scrapycluster.common.zookeeper.DomainConfigYaml;
import org.scrapycluster.common.zookeeper.DomainThrottle;
import org.scrapycluster.common.zookeeper.ParsedDomainConfig;
import org.scrapycluster.common.zookeeper.WatchedNode;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.common.zookeeper.ZooKeeperWatcher;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the domain config in ZooKeeper ({@code ZOOKEEPER_ASSIGN_PATH + ZOOKEEPER_ID}) live, as the
 * original crawler does (docs/compatibility.md §5.3): a new config replaces the domain throttles in
 * {@link DomainThrottles} and, when it has a {@code blacklist} key, the domain blacklist; an emptied
 * node reverts every domain to the default throttle ({@code Lost config from Zookeeper}). Unlike the
 * original, text that is not a YAML mapping and a lost connection keep the last good config (see
 * docs/differences.md); such text is told in one warning naming what was wrong, and every config not applied
 * as written is counted as {@code crawler_errors_total{kind="zookeeper_config"}} (docs/throttling.md). After
 * every change the listener runs, so the scheduler applies it within a second.
 */
public final class DomainConfigFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DomainConfigFollower.class);
    /** The {@code crawler_errors_total} kind of a config not applied as written (docs/operations.md). */
    static final String CONFIG_ERROR = "zookeeper_config";

    private final DomainThrottles throttles;
    private final String spiderId;
    private final CrawlerMetrics metrics;
    private final Runnable changed;
    private volatile Set<String> blacklist = Set.of();
    private volatile boolean everConnected;
    private ZooKeeperWatcher watcher;

    /**
     * @param throttles where throttle entries go
     * @param spiderId  the node's spider, for the log
     * @param metrics   where a config not applied as written is counted
     * @param changed   runs after every change (on the watcher's thread)
     */
    public DomainConfigFollower(DomainThrottles throttles, String spiderId, CrawlerMetrics metrics, Runnable changed) {
        this.throttles = throttles;
        this.spiderId = spiderId;
        this.metrics = metrics;
        this.changed = changed;
    }

    /** Starts following {@code path}; waits for the first read at most the connection timeout. */
    public void start(ZooKeeperConnection connection, String path) {
        watcher = ZooKeeperWatcher.start(connection, WatchedNode.config(path), this::apply, this::validityChanged);
    }

    /** Whether {@code domain} is on the ZooKeeper blacklist. */
    public boolean isBlacklisted(String domain) {
        return blacklist.contains(domain);
    }

    /** Whether the watcher is connected to ZooKeeper. */
    public boolean isConnected() {
        return watcher != null && watcher.isValid();
    }

    /** Applies the text of the config node: a config, or the revert of an emptied node. */
    void apply(String text) {
        if (text.isBlank()) {
            Map<String, DomainThrottle> lost = throttles.overrides();
            throttles.overrides(Map.of());
            LOG.atInfo().addKeyValue("spiderid", spiderId).addKeyValue("reverted_domains", lost.keySet())
                    .log("Lost config from Zookeeper");
            changed.run();
            return;
        }
        ParsedDomainConfig parsed = DomainConfigYaml.parseApplied(text);
        if (!parsed.problems().isEmpty()) {
            metrics.error(CONFIG_ERROR);
        }
        if (parsed.config().isEmpty()) {
            // the text itself is not logged: it may be megabytes, or a YAML bomb
            LOG.atWarn().addKeyValue("problem", parsed.problems().getFirst().toString()).addKeyValue("characters", text.length())
                    .log("Zookeeper config is not used; keeping the last good config");
            return;
        }
        for (ConfigProblem problem : parsed.problems()) {
            LOG.atWarn().addKeyValue("problem", problem.toString()).log("Part of the Zookeeper config is not applied as written");
        }
        DomainConfig config = parsed.config().get();
        throttles.overrides(config.throttles());
        config.blacklist().ifPresent(domains -> blacklist = Set.copyOf(new LinkedHashSet<>(domains)));
        LOG.atInfo().addKeyValue("domains", config.throttles().keySet()).addKeyValue("blacklist", blacklist)
                .log("Zookeeper config changed");
        changed.run();
    }

    private void validityChanged(boolean valid, String reason) {
        if (valid && everConnected) {
            LOG.info("Zookeeper connection is back; following the domain config again");
        } else if (valid) {
            everConnected = true;
            LOG.debug("Following the domain config in Zookeeper");
        } else {
            LOG.atWarn().addKeyValue("reason", reason).log("Zookeeper unavailable; keeping the last good domain config");
        }
    }

    @Override
    public void close() {
        if (watcher != null) {
            watcher.close();
        }
    }

    /** Stops following, waiting at most {@code wait} for the ZooKeeper client to close. */
    public void close(Duration wait) {
        if (watcher != null) {
            watcher.close(wait);
        }
    }
}
