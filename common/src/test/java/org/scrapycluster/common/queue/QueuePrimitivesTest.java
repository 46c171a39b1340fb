package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

/** The §7.2 structures, with the original's online test orders. */
@ExtendWith(TestRedis.class)
class QueuePrimitivesTest {

    private static final QueueCodec<Integer> NUMBERS = new QueueCodec<>() {
        @Override
        public String encode(Integer item) {
            return item.toString();
        }

        @Override
        public Integer decode(String text) {
            return Integer.valueOf(text);
        }
    };

    private final RedisConnection redis;
    private final String prefix = TestRedis.unique("prim");

    QueuePrimitivesTest(RedisConnection redis) {
        this.redis = redis;
    }

    @Test
    void fifoAndLifo() {
        ListQueue<Integer> fifo = ListQueue.fifo(redis, prefix + ":fifo", NUMBERS);
        ListQueue<Integer> lifo = ListQueue.lifo(redis, prefix + ":lifo", NUMBERS);
        for (int i : new int[] {1, 2, 3}) {
            fifo.push(i);
            lifo.push(i);
        }
        assertEquals(3, fifo.size());
        assertEquals(List.of(1, 2, 3), drain(fifo::pop));
        assertEquals(List.of(3, 2, 1), drain(lifo::pop));
        fifo.push(9);
        fifo.clear();
        assertEquals(0, fifo.size());
    }

    @Test
    void priorityComesOutHighestFirst() {
        RedisPriorityQueue<String> queue = new RedisPriorityQueue<>(redis, prefix + ":prio", QueueCodec.STRING);
        queue.push("3", 3);
        queue.push("1", 1);
        queue.push("2", 2);
        assertEquals(3, queue.size());
        assertEquals(List.of("3", "2", "1"), drain(queue::pop));
        assertEquals(-3.0, pushAndScore(queue));
    }

    private double pushAndScore(RedisPriorityQueue<String> queue) {
        queue.push("x", 3);
        return redis.sync().zscore(queue.key(), "x");
    }

    private static <T> List<T> drain(java.util.function.Supplier<Optional<T>> pop) {
        List<T> items = new ArrayList<>();
        Optional<T> item;
        while ((item = pop.get()).isPresent()) {
            items.add(item.get());
        }
        return items;
    }
}
