package org.scrapycluster.crawler.scheduler;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Asks Redis, in one script call ({@code lua/duplicates.lua}), which of a page's requests the enqueue
 * script would certainly turn away as duplicates: those whose crawl is neither stopped nor expired and
 * whose fingerprint is already in the crawl's dupefilter (whose TTL it refreshes, as filing them would).
 * Most links a crawl finds are pages it already has; this way they are neither encoded nor sent with
 * their whole member, and Redis does not decode them. The others are filed as usual, and decided there.
 */
public final class DuplicateProbe {

    private static final LuaScript DUPLICATES = LuaScript.load("duplicates", LuaScript.KEYSPACE, "clock", "member", "batch");
    private static final int FIELDS = 6;

    private final RedisConnection redis;

    public DuplicateProbe(RedisConnection redis) {
        this.redis = redis;
    }

    /**
     * One request to ask about.
     *
     * @param spiderId   the spider of the queue it would go to (whose blacklist names stopped crawls)
     * @param appid      its crawl's appid
     * @param crawlid    its crawl's id
     * @param expires    its crawl's {@code expires}, as written in the request ({@code 0} for none)
     * @param dupefilter its crawl's dupefilter and its fingerprint
     */
    public record Question(String spiderId, String appid, String crawlid, String expires, EnqueueRequest.Dupefilter dupefilter) {
    }

    /** For each question, in order, whether the request is a duplicate; fails when Redis cannot be reached. */
    public CompletableFuture<List<Boolean>> duplicates(List<Question> questions) {
        if (questions.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        String[] keys = new String[questions.size()];
        String[] args = new String[1 + questions.size() * FIELDS];
        args[0] = Integer.toString(questions.size());
        for (int i = 0; i < questions.size(); i++) {
            Question question = questions.get(i);
            keys[i] = question.dupefilter().key();
            int at = 1 + i * FIELDS;
            args[at] = question.spiderId();
            args[at + 1] = question.appid();
            args[at + 2] = question.crawlid();
            args[at + 3] = question.expires();
            args[at + 4] = question.dupefilter().fingerprint();
            args[at + 5] = Long.toString(question.dupefilter().ttl().getSeconds());
        }
        return DUPLICATES.<List<Long>>run(redis, ScriptOutputType.MULTI, keys, args)
                .thenApply(answers -> answers.stream().map(answer -> answer == 1L).toList());
    }
}
