package org.scrapycluster.crawler.robots;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** The rows of {@link ServerErrorRows} in memory, on a clock a test drives, as {@code robots_error.lua} keeps them in Redis. */
public record LocalServerErrorRows(InstantSource clock, Duration retry, Map<String, Kept> rows) implements ServerErrorRows {

    /** A row: its errors, the first's and the last's times, and whether it gave up. */
    record Kept(int errors, Instant first, Instant last, boolean givenUp) {
    }

    public LocalServerErrorRows(InstantSource clock, Duration retry) {
        this(clock, retry, new ConcurrentHashMap<>());
    }

    @Override
    public CompletableFuture<Row> count(String origin) {
        Instant now = clock.instant();
        int giveUpAt = RobotsCache.SERVER_ERRORS_TO_GIVE_UP;
        Kept before = rows.get(origin);
        if (before != null && now.isAfter(before.last().plus(retry.multipliedBy(giveUpAt)))) {
            before = null;
        }
        Instant first = before == null ? now : before.first();
        int errors = before == null ? 1 : before.errors() + 1;
        boolean gives = errors >= giveUpAt || !now.isBefore(first.plus(retry.multipliedBy(giveUpAt - 1)));
        rows.put(origin, new Kept(errors, first, now, before != null && before.givenUp() || gives));
        Verdict verdict = before != null && before.givenUp() ? Verdict.GIVEN_UP : gives ? Verdict.GIVE_UP : Verdict.WAIT;
        return CompletableFuture.completedFuture(new Row(errors, verdict));
    }

    @Override
    public void end(String origin) {
        rows.remove(origin);
    }
}
