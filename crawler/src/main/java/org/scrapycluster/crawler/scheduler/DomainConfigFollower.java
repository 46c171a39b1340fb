package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.zookeeper.ConfigProblem;
import org.scrapycluster.common.zookeeper.DomainConfig;
import org.scrapycluster.common.zookeeper.DomainConfigYaml;
import org.scrapycluster.common.zookeeper.DomainThrottle;
import org.scrapycluster.common.zookeeper.ParsedDomainConfig;
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
 *
 * <p>Until the config has been read once — a usable config, or an empty or missing node, which is the empty config —
 * the blacklist and the throttles are not known, and {@link #holdsBack} holds back every domain: a crawler started
 * while ZooKeeper is away, or while the node holds text it cannot use, hands out nothing (where the original exits),
 * says so once at WARN and in its {@link #health()}, and once at INFO when the config arrives.
 */
public final class DomainConfigFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DomainConfigFollower.class);
    /** Most problems, domains and blacklist entries a change logs one by one: a config may name tens of thousands. */
    private static final int LOGGED = 20;
    /** The {@code crawler_errors_total} kind of a config not applied as written (docs/operations.md). */
    static final String CONFIG_ERROR = "zookeeper_config";

    private final DomainThrottles throttles;
    private final String spiderId;
    private final CrawlerMetrics metrics;
    private final Consumer<Set<String>> changed;
    private final AtomicReference<Reading> reading = new AtomicReference<>(Reading.NOT_YET);
    private volatile Set<String> blacklist = Set.of();
    private volatile String unusable = "";
    private volatile boolean everConnected;
    private String path = "";
    private ZooKeeperWatcher watcher;

    /** How far the first read of the config has come. */
    private enum Reading {
        /** Not read yet, and not told either. */
        NOT_YET,
        /** Not read yet, and the wait told at WARN. */
        WAITING,
        /** A config is in force. */
        READ
    }

    /**
     * @param throttles where throttle entries go
     * @param spiderId  the node's spider, for the log
     * @param metrics   where a config not applied as written is counted
     * @param changed   told after every change (on the watcher's thread), with the domains whose throttle changed
     */
    public DomainConfigFollower(DomainThrottles throttles, String spiderId, CrawlerMetrics metrics, Consumer<Set<String>> changed) {
        this.throttles = throttles;
        this.spiderId = spiderId;
        this.metrics = metrics;
        this.changed = changed;
    }

    /**
     * Starts following {@code path}; waits for the first read at most the connection timeout, and when no config is in
     * force by then, says at WARN that no request is handed out until one is.
     */
    public void start(ZooKeeperConnection connection, String path) {
        this.path = path;
        watcher = ZooKeeperWatcher.start(connection, path, this::apply, this::validityChanged, LOG);
        watcher.firstRead().thenRun(this::firstRead);
        if (reading.compareAndSet(Reading.NOT_YET, Reading.WAITING)) {
            LOG.atWarn().addKeyValue("path", path).addKeyValue("reason", waitingReason())
                    .log("Handing out no requests until the domain config (blacklist, throttles) is read from Zookeeper");
        }
    }

    /** Whether {@code domain} is on the ZooKeeper blacklist. */
    public boolean isBlacklisted(String domain) {
        return blacklist.contains(domain);
    }

    /**
     * Whether no request of {@code domain} may be handed out: it is on the blacklist, or no config has been read yet,
     * so that whether it is on the blacklist, and its throttle, are not known.
     */
    public boolean holdsBack(String domain) {
        return reading.get() != Reading.READ || isBlacklisted(domain);
    }

    /**
     * The {@code zookeeper} health check: down while no config has been read (saying why the node hands out nothing),
     * and while ZooKeeper is away afterwards (the last good config in force).
     */
    public Health health() {
        if (reading.get() != Reading.READ) {
            return Health.down(waitingReason() + "; no requests are handed out until the domain config is read");
        }
        return watcher != null && watcher.isValid() ? Health.up()
                : Health.down("not connected; the last good domain config is in force");
    }

    private String waitingReason() {
        String problem = unusable;
        if (!problem.isEmpty()) {
            return "the domain config at " + path + " is not usable: " + problem;
        }
        return "the domain config at " + path + " has not been read: "
                + (watcher == null ? "not started" : watcher.problem().orElse("ZooKeeper has not answered yet"));
    }

    /** The first read is answered: an empty or missing node is the empty config; a text was {@link #apply applied}. */
    private void firstRead() {
        if (watcher.contents().isEmpty()) {
            configRead();
            changed.accept(Set.of());
        }
    }

    /** A config is in force: the first one ends the wait. */
    private void configRead() {
        unusable = "";
        if (reading.getAndSet(Reading.READ) == Reading.WAITING) {
            LOG.atInfo().addKeyValue("path", path).log("Domain config read from Zookeeper; handing out requests");
        }
    }

    /** Applies the text of the config node: a config, or the revert of an emptied node. */
    void apply(String text) {
        if (text.isBlank()) {
            Map<String, DomainThrottle> lost = throttles.overrides();
            throttles.overrides(Map.of());
            configRead();
            Set<String> kept = blacklist;
            if (kept.isEmpty()) {
                LOG.atInfo().addKeyValue("spiderid", spiderId).addKeyValue("reverted_domains", lost.keySet())
                        .log("Lost config from Zookeeper");
            } else {
                // the original's words first; a blacklist only this crawler still has is worth a warning
                LOG.atWarn().addKeyValue("spiderid", spiderId).addKeyValue("reverted_domains", lost.keySet())
                        .addKeyValue("kept_blacklist", firstOf(kept))
                        .log("Lost config from Zookeeper: throttles back to the defaults; this crawler keeps its blacklist of "
                                + kept.size() + (kept.size() == 1 ? " domain" : " domains")
                                + ", which crawlers started from now on do not have until"
                                + " the config is written again");
            }
            changed.accept(lost.keySet());
            return;
        }
        ParsedDomainConfig parsed = DomainConfigYaml.parseApplied(text);
        if (!parsed.problems().isEmpty()) {
            metrics.error(CONFIG_ERROR);
        }
        if (parsed.config().isEmpty()) {
            String problem = parsed.problems().getFirst().toString();
            boolean inForce = reading.get() == Reading.READ;
            if (!inForce) {
                unusable = problem;
            }
            // the text itself is not logged: it may be megabytes, or a YAML bomb
            LOG.atWarn().addKeyValue("problem", problem).addKeyValue("characters", text.length())
                    .log(inForce ? "Zookeeper config is not used; keeping the last good config"
                            : "Zookeeper config is not used; handing out no requests until a usable one is read");
            return;
        }
        parsed.problems().stream().limit(LOGGED).forEach(problem ->
                LOG.atWarn().addKeyValue("problem", problem.toString()).log("Part of the Zookeeper config is not applied as written"));
        if (parsed.problems().size() > LOGGED) {
            LOG.atWarn().addKeyValue("more", parsed.problems().size() - LOGGED)
                    .log("More parts of the Zookeeper config are not applied as written");
        }
        DomainConfig config = parsed.config().get();
        Map<String, DomainThrottle> before = throttles.overrides();
        throttles.overrides(config.throttles());
        config.blacklist().ifPresent(domains -> blacklist = Set.copyOf(new LinkedHashSet<>(domains)));
        configRead();
        LOG.atInfo().addKeyValue("domains", firstOf(config.throttles().keySet())).addKeyValue("blacklist", firstOf(blacklist))
                .log("Zookeeper config changed");
        changed.accept(throttlesChanged(before, config.throttles()));
    }

    /** The domains whose throttle entry {@code after} adds, removes or changes. */
    private static Set<String> throttlesChanged(Map<String, DomainThrottle> before, Map<String, DomainThrottle> after) {
        Set<String> changed = new HashSet<>();
        before.forEach((domain, throttle) -> {
            if (!throttle.equals(after.get(domain))) {
                changed.add(domain);
            }
        });
        after.keySet().stream().filter(domain -> !before.containsKey(domain)).forEach(changed::add);
        return changed;
    }

    private void validityChanged(boolean valid, String reason) {
        if (valid && everConnected) {
            LOG.info("Zookeeper connection is back; following the domain config again");
        } else if (valid) {
            everConnected = true;
            LOG.debug("Following the domain config in Zookeeper");
        } else if (reading.get() == Reading.READ) {
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

    /** The first {@value #LOGGED} of {@code names}, and how many there are in all when that is more. */
    private static String firstOf(Set<String> names) {
        if (names.size() <= LOGGED) {
            return names.toString();
        }
        return names.stream().limit(LOGGED).toList().toString().replaceFirst("]$", ", … " + names.size() + " in all]");
    }
}
