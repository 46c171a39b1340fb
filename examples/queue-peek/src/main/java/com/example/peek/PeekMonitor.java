package com.example.peek;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.MalformedQueueMemberException;
import org.scrapycluster.common.queue.QueueMember;
import org.scrapycluster.redismonitor.job.Answer;
import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.PluginContext;
import org.scrapycluster.redismonitor.job.RejectedJobException;

import io.lettuce.core.api.sync.RedisCommands;

/**
 * Answers a peek job with how many requests wait in {@code <spiderid>:<domain>:queue} and the first {@code count} of
 * them, in the order the crawlers take them (lowest score first: highest priority, then first come):
 *
 * <pre>{"action": "peek", "appid", "uuid", "spiderid", "domain", "server_time", "total": 42,
 *  "requests": [{"url", "crawlid", "priority"}, …]}</pre>
 *
 * A member no crawler could read either is left out of {@code requests} (it still counts in {@code total}).
 */
final class PeekMonitor implements JobPlugin {

    private final PluginContext context;

    PeekMonitor(PluginContext context) {
        this.context = context;
    }

    @Override
    public String name() {
        return "PeekMonitor";
    }

    @Override
    public String pattern() {
        return PeekJob.PATTERN;
    }

    /** The answer depends on the key alone: the requests waiting on one key share one look at the queue. */
    @Override
    public boolean answersByKey() {
        return true;
    }

    @Override
    public List<Answer> handle(Job job) {
        PeekJob peek = PeekJob.of(job);
        String queue = Keyspace.queue(peek.spiderid(), peek.domain());
        RedisCommands<String, String> redis = context.redis().sync();
        long total = redis.zcard(queue);
        List<String> head = redis.zrange(queue, 0, peek.count() - 1);
        return List.of(answer(peek, job.value(), total, head, context.serverTime()));
    }

    @Override
    public Optional<Answer> errorAnswer(Job job, String error) {
        PeekJob peek;
        try {
            peek = PeekJob.of(job);
        } catch (RejectedJobException e) {
            return Optional.empty(); // a key of another shape names no requester to tell
        }
        Map<String, Object> fields = identification(peek, job.value(), context.serverTime());
        fields.put("error", error);
        return Optional.of(new Answer(peek.appid(), fields, "Sent peek error to kafka"));
    }

    /** The answer to {@code peek} for the request {@code uuid}, from the queue's size and its first members. */
    static Answer answer(PeekJob peek, String uuid, long total, List<String> head, long serverTime) {
        List<Map<String, Object>> requests = new ArrayList<>();
        for (String raw : head) {
            try {
                QueueMember member = QueueMember.parse(raw);
                Map<String, Object> request = new LinkedHashMap<>();
                request.put("url", member.url());
                request.put("crawlid", member.crawlid());
                request.put("priority", member.priority());
                requests.add(request);
            } catch (MalformedQueueMemberException e) {
                // not a request a crawler would take: nothing to show
            }
        }
        Map<String, Object> fields = identification(peek, uuid, serverTime);
        fields.put("total", total);
        fields.put("requests", requests);
        return new Answer(peek.appid(), fields, "Sent peek to kafka");
    }

    private static Map<String, Object> identification(PeekJob peek, String uuid, long serverTime) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("action", "peek");
        fields.put("appid", peek.appid());
        fields.put("uuid", uuid);
        fields.put("spiderid", peek.spiderid());
        fields.put("domain", peek.domain());
        fields.put("server_time", serverTime);
        return fields;
    }
}
