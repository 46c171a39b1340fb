package org.scrapycluster.redismonitor.info;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

import io.lettuce.core.MapScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScoredValueScanCursor;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlCount;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.queue.MalformedQueueMemberException;
import org.scrapycluster.common.queue.QueueDirectory;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.QueueMember;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Counts a spider's queued and leased requests by reading every member, as the original info
 * does (docs/compatibility.md §3.5): the fallback for crawls whose accounting cannot answer for them
 * because a component that keeps none (a Python Kafka monitor or crawler) moved their requests,
 * for info and for their completion. Its cost grows with the spider's backlog (docs/compatibility.md W6); crawls
 * queued and crawled only by our Kafka monitor and crawlers never need it.
 * Members that are not readable requests are skipped.
 */
public final class QueueScan {

    private static final int SCAN_COUNT = 1000;

    private final RedisConnection redis;
    private final QueueDirectory directory;

    public QueueScan(RedisConnection redis) {
        this.redis = redis;
        this.directory = new QueueDirectory(redis);
    }

    /** The requests of {@code crawl}, when it has any. */
    public Optional<CrawlCount> crawl(CrawlRef crawl) {
        return app(crawl.spiderId(), crawl.appid(), member -> member.crawlid().equals(crawl.crawlid())).stream().findFirst();
    }

    /** The requests of every crawl of {@code appid}, ordered by crawlid; only crawls with requests. */
    List<CrawlCount> app(String spiderId, String appid) {
        return app(spiderId, appid, member -> true);
    }

    private List<CrawlCount> app(String spiderId, String appid, Predicate<QueueMember> wanted) {
        Map<String, Tally> crawls = new TreeMap<>();
        Predicate<QueueMember> ofApp = member -> member.appid().equals(appid) && wanted.test(member);
        for (QueueKey queue : directory.queues(spiderId)) {
            ScoredValueScanCursor<String> page;
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                page = redis.sync().zscan(queue.key(), cursor, ScanArgs.Builder.limit(SCAN_COUNT));
                for (ScoredValue<String> member : page.getValues()) {
                    count(crawls, queue.domain(), member.getValue(), ofApp);
                }
                cursor = page;
            } while (!page.isFinished());
        }
        MapScanCursor<String, String> leases;
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            leases = redis.sync().hscan(Keyspace.leased(spiderId), cursor, ScanArgs.Builder.limit(SCAN_COUNT));
            leases.getMap().forEach((leaseId, member) -> {
                // <domain>|<score>|<holder>, read from the end: a domain a Python Kafka monitor names may hold a '|'
                int holderBar = leaseId.lastIndexOf('|');
                int scoreBar = holderBar > 0 ? leaseId.lastIndexOf('|', holderBar - 1) : -1;
                if (scoreBar > 0) {
                    count(crawls, leaseId.substring(0, scoreBar), member, ofApp);
                }
            });
            cursor = leases;
        } while (!leases.isFinished());
        return crawls.entrySet().stream()
                .map(crawl -> crawl.getValue().count(new CrawlRef(spiderId, appid, crawl.getKey())))
                .toList();
    }

    private static void count(Map<String, Tally> crawls, String domain, String raw, Predicate<QueueMember> wanted) {
        QueueMember member;
        try {
            member = QueueMember.parse(raw);
        } catch (MalformedQueueMemberException e) {
            return;
        }
        if (wanted.test(member)) {
            crawls.computeIfAbsent(member.crawlid(), crawlid -> new Tally(member.expires())).add(domain, member.priority());
        }
    }

    /** One crawl's requests as they are read, by domain. */
    private static final class Tally {

        private final long expires;
        private final Map<String, DomainTally> domains = new TreeMap<>();
        private long pending;

        /** @param expires the {@code expires} of the first request seen, as the original reports it */
        Tally(long expires) {
            this.expires = expires;
        }

        void add(String domain, int priority) {
            domains.computeIfAbsent(domain, d -> new DomainTally(priority)).add(priority);
            pending++;
        }

        CrawlCount count(CrawlRef crawl) {
            Map<String, CrawlCount.DomainCount> counts = new TreeMap<>();
            domains.forEach((domain, tally) -> counts.put(domain, new CrawlCount.DomainCount(tally.total, tally.high, tally.low)));
            return new CrawlCount(crawl, counts, pending, 0, expires, Optional.empty());
        }
    }

    /** One domain's requests of a crawl: how many, and the highest and lowest crawl priority. */
    private static final class DomainTally {

        private long total;
        private int high;
        private int low;

        DomainTally(int priority) {
            this.high = priority;
            this.low = priority;
        }

        void add(int priority) {
            total++;
            high = Math.max(high, priority);
            low = Math.min(low, priority);
        }
    }
}
