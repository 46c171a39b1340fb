package org.scrapycluster.rest.live;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScoredValue;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlCounts;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RefusedKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active crawls, from the crawl accounting (docs/architecture.md "Crawl accounting"): the most
 * recently active {@code LIVE_MAX_CRAWLS} members of {@code crawls:active} with their pages,
 * pending requests, expiry and start (one {@code HMGET} each, pipelined) and last activity; their pages a second over
 * the last minute, from the change of their page counts between refreshes; their starts as {@link CrawlStarts} keeps
 * them. Counts all active crawls, listed or not. Also sums their pending requests by domain, for the domain table, from at most
 * {@code LIVE_MAX_ACCOUNTING_FIELDS} domain fields of their accounting a refresh ({@code HSCAN}, the most recently
 * active crawls first), since a broad crawl has one field per domain. A crawl whose accounting Redis refuses (of another type) is left out and logged once
 * (docs/operations.md "Keys Redis refuses"). Refreshed on the live view's thread; {@link #started} may be asked from any.
 */
final class CrawlTable {

    private static final Logger LOG = LoggerFactory.getLogger(CrawlTable.class);

    private static final int FIELDS_A_SCAN = 1000;

    private final int maxCrawls;
    private final long maxFields;
    private final RefusedKeys refused = new RefusedKeys(LOG, "The live view");
    private final PageRates rates = new PageRates();
    private final CrawlStarts starts = new CrawlStarts();

    /**
     * @param maxFields the most domain fields of the accounting a refresh sums for the backlog by domain ({@code LIVE_MAX_ACCOUNTING_FIELDS})
     */
    CrawlTable(int maxCrawls, long maxFields) {
        this.maxCrawls = maxCrawls;
        this.maxFields = maxFields;
    }

    /**
     * What one refresh read; {@code active} counts every active crawl, {@code rows} the listed ones;
     * {@code backlogByDomain} covers the listed crawls unless {@code domainsPartial}.
     */
    record Reading(ArrayNode rows, Map<String, Long> backlogByDomain, boolean domainsPartial, long backlog, long active) {
    }

    /** A crawl that may be listed: its score in {@code crawls:active} (null once it left) and its accounting, both asked. */
    private record Candidate(CrawlRef crawl, CompletionStage<Double> score, CompletionStage<Optional<CrawlCounts.Totals>> totals) {
    }

    /** A listed crawl, its accounting and its last activity, in epoch milliseconds. */
    private record Listed(CrawlRef crawl, CrawlCounts.Totals count, long lastActivity) {
    }

    /**
     * The crawls the last refresh listed. With more crawls active than listed, the highest scores of {@code crawls:active}
     * are not all the most recently active: the completion check scores a crawl whose requests wait (for a crawler of its
     * spider, on a throttle) anew every quiet period, so that beyond the limit those would take turns at every refresh.
     * A crawl listed stays listed while it is active, unless crawls whose accounting says they moved more recently
     * displace it.
     */
    private List<CrawlRef> shown = List.of();

    Reading read(RedisConnection redis, long nowMillis) {
        List<Listed> listed = listed(redis, nowMillis);
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        List<CrawlRef> withAccounting = new ArrayList<>();
        long backlog = 0;
        Set<String> present = new HashSet<>();
        for (Listed member : listed) {
            CrawlRef crawl = member.crawl();
            CrawlCounts.Totals count = member.count();
            withAccounting.add(crawl);
            present.add(crawl.name());
            long started = starts.start(crawl.name(), count.started(), nowMillis);
            ObjectNode row = rows.addObject();
            row.put("appid", crawl.appid());
            row.put("crawlid", crawl.crawlid());
            row.put("spiderid", crawl.spiderId());
            row.put("pages", count.pages());
            row.put("pending", count.pending());
            OptionalDouble rate = rates.rate(crawl.name(), count.pages(), nowMillis);
            if (rate.isPresent()) {
                row.put("pages_per_second", rate.getAsDouble());
            } else {
                row.putNull("pages_per_second");
            }
            row.put("started", started / 1000);
            row.put("start_known", starts.known(crawl.name()));
            row.put("last_activity", member.lastActivity() / 1000);
            row.put("expires", count.expires());
            backlog += count.pending();
        }
        rates.keepOnly(present);
        starts.listingDone(nowMillis);
        Map<String, Long> byDomain = new TreeMap<>();
        boolean partial = sumByDomain(redis, withAccounting, byDomain);
        return new Reading(rows, byDomain, partial, backlog, redis.sync().zcard(Keyspace.CRAWLS_ACTIVE));
    }

    /**
     * The {@code maxCrawls} most recently active of the crawls with the highest scores in {@code crawls:active} and those
     * listed last time that are still active, with their accounting (one {@code HMGET} each, and a {@code ZSCORE} for
     * each crawl listed last time and not among the highest scores, pipelined), the most recently active first.
     */
    private List<Listed> listed(RedisConnection redis, long nowMillis) {
        CrawlCounts counts = new CrawlCounts(redis);
        Map<String, Candidate> candidates = new LinkedHashMap<>();
        for (ScoredValue<String> member : redis.sync().zrevrangeWithScores(Keyspace.CRAWLS_ACTIVE, 0, maxCrawls - 1L)) {
            try {
                CrawlRef crawl = CrawlRef.parse(member.getValue());
                CompletionStage<Double> score = CompletableFuture.completedFuture(member.getScore());
                candidates.put(crawl.name(), new Candidate(crawl, score, counts.totals(crawl)));
            } catch (IllegalArgumentException e) {
                // not a crawl's name: not listed
            }
        }
        for (CrawlRef crawl : shown) {
            candidates.computeIfAbsent(crawl.name(), name -> new Candidate(crawl,
                    redis.async().zscore(Keyspace.CRAWLS_ACTIVE, name), counts.totals(crawl)));
        }
        List<Listed> listed = new ArrayList<>();
        for (Candidate candidate : candidates.values()) {
            String name = candidate.crawl().name();
            Optional<Double> score = refused.await(redis, name, candidate.score());
            Optional<CrawlCounts.Totals> count = refused.await(redis, name, candidate.totals()).flatMap(totals -> totals);
            if (score.isPresent() && count.isPresent()) {
                listed.add(new Listed(candidate.crawl(), count.get(), lastActivity(count.get(), score.get(), nowMillis)));
            }
        }
        listed.sort(Comparator.comparingLong(Listed::lastActivity).reversed());
        List<Listed> kept = List.copyOf(listed.subList(0, Math.min(maxCrawls, listed.size())));
        shown = kept.stream().map(Listed::crawl).toList();
        return kept;
    }

    /**
     * When one of our services last moved a request of the crawl, from its accounting; else its score in
     * {@code crawls:active}, no later than now. The score alone says more than that: the completion check makes a quiet
     * crawl with requests pending active again every quiet period (its requests wait on a throttle, or for a crawler of
     * its spider), and scores a foreign crawl it found drained ahead, when it is to be looked at again.
     */
    private static long lastActivity(CrawlCounts.Totals count, double score, long nowMillis) {
        return count.updated().orElse(Math.min(Math.round(score), nowMillis));
    }

    /**
     * Adds the requests {@code crawls} have queued or leased to {@code byDomain}, reading their accounting in order
     * until {@code maxFields} domain fields have been summed: a hard cap, though {@code HSCAN} may answer more fields
     * than its {@code COUNT} asks (a small hash comes back whole), and the crawl's own fields ({@code pending},
     * {@code pages}, ...) are passed over, not counted.
     *
     * @return whether some fields were left unread or not summed
     */
    private boolean sumByDomain(RedisConnection redis, List<CrawlRef> crawls, Map<String, Long> byDomain) {
        long summed = 0;
        for (CrawlRef crawl : crawls) {
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                if (summed >= maxFields) {
                    return true;
                }
                ScanArgs batch = ScanArgs.Builder.limit(Math.min(FIELDS_A_SCAN, maxFields - summed));
                ScanCursor from = cursor;
                Optional<MapScanCursor<String, String>> scanned = refused.read(crawl.name(),
                        () -> redis.sync().hscan(crawl.accountingKey(), from, batch));
                if (scanned.isEmpty()) {
                    break;
                }
                for (Map.Entry<String, String> field : scanned.get().getMap().entrySet()) {
                    Optional<CrawlCounts.DomainField> domain = domainField(crawl, field.getKey());
                    if (domain.isEmpty()) {
                        continue;
                    }
                    if (summed >= maxFields) {
                        return true;
                    }
                    summed++;
                    addDomainField(crawl, domain.get(), field.getValue(), byDomain);
                }
                cursor = scanned.get();
            } while (!cursor.isFinished());
        }
        return false;
    }

    /** The domain and priority {@code field} counts, or empty for the crawl's own fields and one that cannot be read. */
    private static Optional<CrawlCounts.DomainField> domainField(CrawlRef crawl, String field) {
        try {
            return CrawlCounts.DomainField.parse(field);
        } catch (NumberFormatException e) {
            LOG.debug("Skipping unreadable accounting field {} of {}", field, crawl.accountingKey());
            return Optional.empty();
        }
    }

    private static void addDomainField(CrawlRef crawl, CrawlCounts.DomainField domain, String value, Map<String, Long> byDomain) {
        try {
            byDomain.merge(domain.domain(), Long.parseLong(value), Long::sum);
        } catch (NumberFormatException e) {
            LOG.debug("Skipping unreadable accounting value {}={} of {}", domain, value, crawl.accountingKey());
        }
    }

    /**
     * When {@code crawl} started, in epoch milliseconds, as its accounting recorded or this gateway saw it appear;
     * empty when it was not listed within the last hour, or its start is not known.
     */
    OptionalLong started(CrawlRef crawl) {
        return starts.started(crawl.name());
    }
}
