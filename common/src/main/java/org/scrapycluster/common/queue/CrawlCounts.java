package org.scrapycluster.common.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.lettuce.core.KeyValue;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.logging.SaidOnce;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Reads the crawl accounting that the queue scripts keep in step with the queues
 * (docs/architecture.md "Crawl accounting"): per crawl and per app for the Redis monitor's info,
 * quiet crawls for its completion announcements, and retiring a completed crawl's accounting or
 * forgetting a stopped or expired one's.
 * Costs are bounded by the number of a crawl's domains, not by the backlog.
 *
 * <p>Processes that keep no accounting (the Python original's crawler and Kafka monitor) can move a
 * crawl's requests behind its counters' back; {@link #trusted(CrawlRef)} says when the counters
 * still answer for a crawl, and callers read the queues for the others (docs/operations.md "Mixed
 * Python and Java clusters").
 */
public final class CrawlCounts {

    private static final Logger LOG = LoggerFactory.getLogger(CrawlCounts.class);
    private static final LuaScript RETIRE = LuaScript.load("retire", "clock", "errors", "forget");
    private static final LuaScript CHECK = LuaScript.load("check_accounting", "errors");
    private static final LuaScript FORGET = LuaScript.load("forget", "errors", "forget");
    private static final LuaScript DRAINED = LuaScript.load("drained", "errors");

    /** How long the accounting of a stopped or expired crawl outlives it ({@link #forget(CrawlRef)}): a day. */
    public static final Duration FORGOTTEN_ACCOUNTING_TTL = Duration.ofDays(1);

    private static final String PENDING = "pending";
    private static final String PAGES = "pages";
    private static final String EXPIRES = "expires";
    private static final String STARTED = "started";
    private static final String UPDATED = "updated";

    private final RedisConnection redis;
    private final SaidOnce unnamed = new SaidOnce("member");
    private final SaidOnce unreadable = new SaidOnce("field");

    public CrawlCounts(RedisConnection redis) {
        this.redis = redis;
    }

    /**
     * A crawl's totals, without its domains.
     *
     * @param pending requests queued or leased in total
     * @param pages   results published
     * @param expires the crawl's {@code expires} (0 for never)
     * @param started when its first request was counted, epoch milliseconds on the Redis server's clock; empty when
     *                its accounting holds none that can be read (written by a build that recorded none)
     * @param updated when one of our services last moved a request of it (filed, handed out, acknowledged, returned),
     *                epoch milliseconds on the Redis server's clock; empty when its accounting holds none that can be read
     */
    public record Totals(long pending, long pages, long expires, OptionalLong started, OptionalLong updated) {
    }

    /**
     * The totals of {@code crawl}'s accounting, or empty when it has none: one {@code HMGET} of five fields, however
     * many domains the crawl has; many in flight at once are pipelined.
     */
    public CompletionStage<Optional<Totals>> totals(CrawlRef crawl) {
        return redis.async().hmget(crawl.accountingKey(), PENDING, PAGES, EXPIRES, STARTED, UPDATED).thenApply(values -> {
            if (values.stream().noneMatch(KeyValue::hasValue)) {
                return Optional.empty();
            }
            return Optional.of(new Totals(number(values.get(0).getValueOrElse(null)), number(values.get(1).getValueOrElse(null)),
                    number(values.get(2).getValueOrElse(null)), instant(values.get(3)), instant(values.get(4))));
        });
    }

    /** A field holding epoch milliseconds, or empty when it holds none above 0. */
    private static OptionalLong instant(KeyValue<String, String> field) {
        long millis = number(field.getValueOrElse(null));
        return millis > 0 ? OptionalLong.of(millis) : OptionalLong.empty();
    }

    /**
     * A field of a crawl's accounting that counts the crawl's requests for one domain at one crawl priority.
     *
     * @param domain   the domain
     * @param priority the crawl priority
     */
    public record DomainField(String domain, int priority) {

        /**
         * The field {@code <domain>|<priority>}; empty for the crawl's own fields ({@code pending}, {@code pages}, ...).
         *
         * @throws NumberFormatException when the priority is not a number
         */
        public static Optional<DomainField> parse(String field) {
            int bar = field.lastIndexOf('|');
            if (bar <= 0) {
                return Optional.empty();
            }
            return Optional.of(new DomainField(field.substring(0, bar), Integer.parseInt(field.substring(bar + 1))));
        }
    }

    /**
     * The accounting of {@code crawl}, or empty when it has none, or a key of another type at its name (written by hand,
     * docs/operations.md "Keys Redis refuses"): the crawl is then answered for from the queues.
     */
    public Optional<CrawlCount> crawl(CrawlRef crawl) {
        Map<String, String> hash = RedisErrors.unlessWrongType(() -> redis.sync().hgetall(crawl.accountingKey()), Map.of());
        return hash.isEmpty() ? Optional.empty() : Optional.of(read(crawl, hash));
    }

    /**
     * The accounting of {@code crawl} when it answers for the crawl: it has accounting, the crawl is
     * not in {@link Keyspace#CRAWLS_FOREIGN}, and each of its domain queues has the length our
     * scripts left it with (a crawl that fails this is put in {@code crawls:foreign} for good).
     * Costs a {@code ZCARD} per domain of the crawl. Empty otherwise: read the queues instead.
     */
    public Optional<CrawlCount> trusted(CrawlRef crawl) {
        return crawl(crawl).filter(this::agreesWithQueues);
    }

    /**
     * {@link #trusted(CrawlRef)} for every crawl of the app that has accounting or was seen moved
     * by a foreign process; empty when any of them cannot be answered for by its accounting.
     */
    public Optional<List<CrawlCount>> trustedApp(String spiderId, String appid) {
        List<CrawlCount> counts = new ArrayList<>();
        for (String crawlid : new TreeSet<>(redis.sync().smembers(Keyspace.crawlsOfApp(spiderId, appid)))) {
            Optional<CrawlCount> count = trusted(new CrawlRef(spiderId, appid, crawlid));
            if (count.isEmpty()) {
                return Optional.empty();
            }
            counts.add(count.get());
        }
        return Optional.of(counts);
    }

    /**
     * Whether {@code crawl} is in {@link Keyspace#CRAWLS_FOREIGN} or its accounting disagrees with
     * its queues (see {@link #trusted(CrawlRef)}); a crawl without accounting that is not known to
     * be foreign has nothing to disagree with.
     */
    public boolean foreign(CrawlRef crawl) {
        Optional<CrawlCount> count = crawl(crawl);
        return count.isPresent() ? !agreesWithQueues(count.get()) : redis.sync().sismember(Keyspace.CRAWLS_FOREIGN, crawl.name());
    }

    /**
     * Notes that a completion check read the queues of foreign {@code crawl} and found nothing: true when an earlier
     * check had found the same and the crawl's dupefilter holds as many requests as then (a Python crawler fetching at
     * both looks files the links of a page fetched in between there), so the crawl may be retired now; otherwise the
     * dupefilter's size is noted, and the crawl made active again at {@code activeAt} (now, or later for a longer
     * wait), so that the next check comes at least a quiet period after that.
     */
    public boolean drained(CrawlRef crawl, Instant activeAt) {
        Long mayRetire = DRAINED.call(redis, ScriptOutputType.INTEGER,
                new String[] {Keyspace.CRAWLS_DRAINED, Keyspace.CRAWLS_ACTIVE, Keyspace.dupefilter(crawl.spiderId(), crawl.crawlid())},
                crawl.name(), Long.toString(activeAt.toEpochMilli()));
        return mayRetire == 1;
    }

    /** Notes that foreign {@code crawl} still has requests: it is active at {@code now}, and not drained. */
    public void busy(CrawlRef crawl, Instant now) {
        redis.sync().hdel(Keyspace.CRAWLS_DRAINED, crawl.name());
        redis.sync().zadd(Keyspace.CRAWLS_ACTIVE, (double) now.toEpochMilli(), crawl.name());
    }

    private boolean agreesWithQueues(CrawlCount count) {
        CrawlRef crawl = count.crawl();
        List<String> keys = new ArrayList<>(List.of(Keyspace.CRAWLS_FOREIGN, Keyspace.queueLengths(crawl.spiderId())));
        List<String> args = new ArrayList<>();
        args.add(crawl.name());
        for (String domain : count.domains().keySet()) {
            keys.add(Keyspace.queue(crawl.spiderId(), domain));
            args.add(domain);
        }
        Long agrees = CHECK.call(redis, ScriptOutputType.INTEGER, keys.toArray(String[]::new), args.toArray(String[]::new));
        return agrees == 1;
    }

    /** The accounting of every crawl of {@code appid} on {@code spiderId}, ordered by crawlid. */
    public List<CrawlCount> app(String spiderId, String appid) {
        List<CrawlCount> counts = new ArrayList<>();
        for (String crawlid : new TreeSet<>(redis.sync().smembers(Keyspace.crawlsOfApp(spiderId, appid)))) {
            crawl(new CrawlRef(spiderId, appid, crawlid)).ifPresent(counts::add);
        }
        return counts;
    }

    /**
     * Crawls whose last activity was before {@code before}, oldest first, at most {@code limit}: the candidates for a
     * completion announcement once their pending count is 0. The bound is left out, so that a crawl a check made active
     * again at its own time leaves the candidates even with no quiet period ({@code CRAWL_COMPLETE_QUIET_SECONDS: 0}),
     * where the check's paging would otherwise read it again for ever.
     */
    public List<CrawlRef> quietSince(Instant before, int limit) {
        return quietSince(before, 0, limit);
    }

    /**
     * {@link #quietSince(Instant, int)} from the {@code offset}-th oldest on, to page through many. A member that names no
     * crawl, as one whose appid or crawlid holds a colon does (accepted with the safety checks off, or queued by a Python
     * Kafka monitor: docs/differences.md "Request validation"), can be neither announced nor retired: it is taken out of
     * {@code crawls:active}, and said once at WARN, rather than read again at every check.
     */
    public List<CrawlRef> quietSince(Instant before, long offset, int limit) {
        List<CrawlRef> crawls = new ArrayList<>();
        for (String name : redis.sync().zrangebyscore(Keyspace.CRAWLS_ACTIVE,
                Range.from(Range.Boundary.unbounded(), Range.Boundary.excluding((double) before.toEpochMilli())),
                Limit.create(offset, limit))) {
            try {
                crawls.add(CrawlRef.parse(name));
            } catch (IllegalArgumentException e) {
                redis.sync().zrem(Keyspace.CRAWLS_ACTIVE, name);
                unnamed.say(LOG, Level.WARN, name, event -> event.addKeyValue("member", name),
                        "Took a member that names no crawl out of " + Keyspace.CRAWLS_ACTIVE
                                + " (an appid or crawlid holding a colon); its crawl is not announced complete");
            }
        }
        return crawls;
    }

    /**
     * Forgets the accounting of a crawl whose completion is to be announced, atomically and only
     * if it is still in {@code crawls:active}, had no activity after {@code quietBefore}, has
     * nothing pending and has not expired: a crawl whose timeout key holds a time the Redis server's
     * clock has reached is left to the expire job, which purges it and announces it as expired
     * (crawlers' hand-outs drop an expired crawl's requests, so it soon has nothing pending;
     * docs/redis-monitor.md "complete"). Of any number of callers racing on one crawl, exactly one
     * succeeds; it also deletes the crawl's timeout key and files the crawl in
     * {@code crawls:completed}, for {@link #oldestCompleted()}.
     *
     * @return the pages the crawl published, when this call retired it; empty when it did not
     *         (already retired, active again, requests arrived meanwhile: the crawl goes on; or
     *         expired: the expire job ends it; or stopped: it is forgotten)
     */
    public OptionalLong retireIfIdle(CrawlRef crawl, Instant quietBefore) {
        return redis.await(retireIfIdleAsync(crawl, quietBefore, false)) instanceof Retirement.Retired retired
                ? OptionalLong.of(retired.pages())
                : OptionalLong.empty();
    }

    /**
     * {@link #retireIfIdle}, without waiting; several calls in flight are pipelined. A quiet crawl
     * that still has requests pending is made active again at the Redis server's time
     * ({@link Retirement.Busy}): the completion checks of every monitor pass it over for another
     * quiet period instead of reading its accounting and queues at each check. Whatever later drains
     * it makes it active again too, so this delays no announcement. A quiet crawl in its spider's
     * blacklist was stopped or expired, by a Python Redis monitor that keeps no accounting: it is
     * forgotten as {@link #forget} does ({@link Retirement.Forgotten}), not announced complete.
     *
     * @param queuesRead true when the caller read the queues and leases of a {@link #foreign} crawl
     *                   and found nothing of it: its pending count is then not looked at
     */
    public CompletableFuture<Retirement> retireIfIdleAsync(CrawlRef crawl, Instant quietBefore, boolean queuesRead) {
        return RETIRE.<Long>run(redis, ScriptOutputType.INTEGER,
                        new String[] {crawl.accountingKey(), Keyspace.crawlsOfApp(crawl.spiderId(), crawl.appid()), Keyspace.CRAWLS_ACTIVE,
                                Keyspace.CRAWLS_COMPLETED, crawl.timeoutKey(), Keyspace.CRAWLS_FOREIGN, Keyspace.CRAWLS_DRAINED,
                                Keyspace.blacklist(crawl.spiderId())},
                        crawl.crawlid(), crawl.name(), Long.toString(quietBefore.toEpochMilli()), crawl.spiderId(), crawl.appid(),
                        queuesRead ? "1" : "0", crawl.blacklistEntry(), Long.toString(FORGOTTEN_ACCOUNTING_TTL.toSeconds()))
                .thenApply(CrawlCounts::retirement);
    }

    /** The retire script's answer: the pages when it retired the crawl, -2 when it found it busy, -3 when it forgot it, -1 otherwise. */
    private static Retirement retirement(long answer) {
        if (answer >= 0) {
            return new Retirement.Retired(answer);
        }
        if (answer == -2) {
            return new Retirement.Busy();
        }
        return answer == -3 ? new Retirement.Forgotten() : new Retirement.Kept();
    }

    /**
     * The oldest retired crawl whose completion no Kafka has taken yet, first in
     * {@code crawls:completed}, left there: it leaves the list only once its announcement was sent,
     * with {@link #announced(CompletedCrawl)}, so that an announcement is never lost to a send that
     * failed or a Redis monitor that died while sending (docs/redis-monitor.md "complete"). A member
     * that names no crawl is dropped with a warning.
     */
    public Optional<CompletedCrawl> oldestCompleted() {
        while (true) {
            String entry = redis.sync().lindex(Keyspace.CRAWLS_COMPLETED, 0);
            if (entry == null) {
                return Optional.empty();
            }
            try {
                return Optional.of(CompletedCrawl.parse(entry));
            } catch (IllegalArgumentException e) {
                LOG.warn("Dropping a member of {} that names no crawl: {}", Keyspace.CRAWLS_COMPLETED, entry);
                redis.sync().lrem(Keyspace.CRAWLS_COMPLETED, 1, entry);
            }
        }
    }

    /**
     * Takes {@code completed} out of {@code crawls:completed} once Kafka has taken its announcement: the
     * first member equal to it, which is the one {@link #oldestCompleted()} read unless another Redis
     * monitor sent it meanwhile (then an equal one retired later, if any, is sent again rather than lost).
     */
    public void announced(CompletedCrawl completed) {
        redis.sync().lrem(Keyspace.CRAWLS_COMPLETED, 1, completed.entry());
    }

    /**
     * Forgets a crawl that was stopped or expired, whose answer is its last word: takes it out of its
     * app's crawls, {@code crawls:active} (it is not announced complete), {@code crawls:foreign} and
     * {@code crawls:drained_seen} at once, so that an app's info and the completion check no longer read
     * it, and leaves its accounting to expire after {@link #FORGOTTEN_ACCOUNTING_TTL}: until then it
     * answers an info on the crawl, or a second stop, with nothing pending, without reading the
     * spider's queues. The accounting of a crawl in {@code crawls:foreign}, which cannot answer for
     * it, is deleted. Call it once the crawl is blacklisted and purged: nothing writes its accounting
     * again then.
     */
    public Forgotten forget(CrawlRef crawl) {
        List<Object> reply = FORGET.call(redis, ScriptOutputType.MULTI,
                new String[] {crawl.accountingKey(), Keyspace.crawlsOfApp(crawl.spiderId(), crawl.appid()), Keyspace.CRAWLS_ACTIVE,
                        Keyspace.CRAWLS_FOREIGN, Keyspace.CRAWLS_DRAINED, crawl.purgedKey()},
                crawl.crawlid(), crawl.name(), Long.toString(FORGOTTEN_ACCOUNTING_TTL.toSeconds()));
        return new Forgotten((Long) reply.get(0) == 1, (Long) reply.get(1), (Long) reply.get(2));
    }

    /**
     * What {@link #forget} found.
     *
     * @param kept    whether the accounting was left to expire (false: deleted, or there was none)
     * @param dropped the crawl's requests that crawlers' hand-outs dropped since it was blacklisted, which the purge
     *                did not find: those of the crawls we count (a Python crawler's drops are not)
     * @param purged  the crawl's requests the purges removed since the last forget ({@link CrawlPurger}): those of an
     *                attempt cut off midway too
     */
    public record Forgotten(boolean kept, long dropped, long purged) {
    }

    private CrawlCount read(CrawlRef crawl, Map<String, String> hash) {
        Map<String, CrawlCount.DomainCount> domains = new TreeMap<>();
        for (Map.Entry<String, String> field : hash.entrySet()) {
            try {
                Optional<DomainField> domain = DomainField.parse(field.getKey());
                if (domain.isEmpty()) {
                    continue;
                }
                int priority = domain.get().priority();
                long count = Long.parseLong(field.getValue());
                domains.merge(domain.get().domain(), new CrawlCount.DomainCount(count, priority, priority),
                        (known, more) -> known.plus(more.total(), priority));
            } catch (NumberFormatException e) {
                unreadable.say(LOG, Level.WARN, crawl.accountingKey() + " " + field.getKey(),
                        event -> event.addKeyValue("key", crawl.accountingKey()).addKeyValue("field", field.getKey()),
                        "Skipping unreadable accounting field " + field.getKey() + "=" + field.getValue() + " of " + crawl.accountingKey());
            }
        }
        String updated = hash.get(UPDATED);
        return new CrawlCount(crawl, domains, number(hash.get(PENDING)), number(hash.get(PAGES)), number(hash.get(EXPIRES)),
                updated == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(number(updated))));
    }

    private static long number(String value) {
        if (value == null) {
            return 0;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
