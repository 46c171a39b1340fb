package com.example.peek;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.redismonitor.job.Answer;

class PeekMonitorTest {

    @Test
    void theAnswerListsTheReadableHeadOfTheQueueAndCountsAllOfIt() {
        List<String> head = List.of(
                "{\"url\": \"http://shop.example/a\", \"appid\": \"testapp\", \"crawlid\": \"c1\", \"priority\": 50}",
                "not a request",
                "{\"url\": \"http://shop.example/b\", \"meta\": {\"appid\": \"testapp\", \"crawlid\": \"c2\", \"priority\": 40}}");
        Answer answer = PeekMonitor.answer(new PeekJob("link", "shop.example", "testapp", 3), "p1", 7, head, 1_700_000_000L);
        assertEquals("testapp", answer.appid());
        assertEquals(List.of("action", "appid", "uuid", "spiderid", "domain", "server_time", "total", "requests"),
                List.copyOf(answer.fields().keySet()));
        assertEquals("p1", answer.fields().get("uuid"));
        assertEquals(7L, answer.fields().get("total"));
        assertEquals(List.of(Map.of("url", "http://shop.example/a", "crawlid", "c1", "priority", 50),
                Map.of("url", "http://shop.example/b", "crawlid", "c2", "priority", 40)), answer.fields().get("requests"));
    }
}
