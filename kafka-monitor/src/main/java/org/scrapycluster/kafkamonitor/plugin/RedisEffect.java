package org.scrapycluster.kafkamonitor.plugin;

import java.util.Objects;
import java.util.Optional;

import org.scrapycluster.common.queue.EnqueueRequest;

/**
 * One write a plugin asks for. The monitor runs the writes of a whole batch on one connection,
 * pipelined and in order, and retries the batch while Redis is away; every effect is therefore
 * safe to apply twice.
 */
public sealed interface RedisEffect {

    /**
     * File a request into its domain queue with the shared {@code Enqueuer} (readiness, crawl
     * accounting, dupefilter and timeout key as the request says).
     *
     * @param request    what to file
     * @param timeoutKey the crawl's {@code timeout:<spiderid>:<appid>:<crawlid>} when the request
     *                   writes it (its {@code expires} is not 0): announced to the Redis monitors
     *                   on {@code jobs:signal} like any job key
     */
    record Enqueue(EnqueueRequest request, Optional<String> timeoutKey) implements RedisEffect {

        public Enqueue {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(timeoutKey, "timeoutKey");
        }
    }

    /**
     * A job the Redis monitors run ({@code info:…}, {@code stop:…}, {@code statsrequest:…},
     * {@code zk:…}, named by {@code JobKeys}): {@code SET key value} and the value appended to the
     * job's waiting list ({@code JobKeys.write}), then {@code RPUSH jobs:signal key} so that a Redis
     * monitor picks it up at once.
     */
    record SetJob(String key, String value) implements RedisEffect {

        public SetJob {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }

    /** {@code SADD key member}: a member of a set, such as a crawl in its spider's blacklist. */
    record AddMember(String key, String member) implements RedisEffect {

        public AddMember {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(member, "member");
        }
    }

    /** A plain {@code SET key value}, for keys that are not jobs. */
    record SetKey(String key, String value) implements RedisEffect {

        public SetKey {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }
}
