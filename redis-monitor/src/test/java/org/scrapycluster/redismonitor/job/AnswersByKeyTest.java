package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.jobs.JobKeys;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.redismonitor.info.InfoMonitor;
import org.scrapycluster.redismonitor.stats.StatsMonitor;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * Several info or stats requests of one key waiting in one pass (docs/redis-monitor.md "Requests of the same scope"): the
 * answer is worked out once and sent to each under its own uuid; a key handled again in a later pass is worked out
 * again.
 */
@ExtendWith(SharedStack.class)
class AnswersByKeyTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private JobTestBed bed;
    private PluginContext context;
    private final List<String> keys = new ArrayList<>();

    @BeforeEach
    void connect(EmbeddedStack stack) {
        bed = new JobTestBed(stack, "answersbykey", 3);
        context = new PluginContext(null, bed.redis, Clock.systemUTC(), null);
    }

    @AfterEach
    void close() {
        for (String key : keys) {
            bed.redis.sync().del(key, Keyspace.JOB_WAITING.fill(key), Keyspace.JOB_ANSWERS.fill(key), Keyspace.lock(key), JobFailures.key(key));
        }
        bed.close();
    }

    @Test
    void infoRequestsOfOneCrawlWaitingInOnePassAreWorkedOutOnceAndEachAnswered() throws Exception {
        String key = key(Keyspace.INFO_CRAWL.fill("link-" + UUID.randomUUID(), "app1", "c1"));
        Counting info = new Counting(new InfoMonitor(context));

        assertSharedAnswers(info, key);
    }

    @Test
    void statsRequestsOfOneTypeWaitingInOnePassAreWorkedOutOnceAndEachAnswered() throws Exception {
        String key = key(Keyspace.STATS_REQUEST.fill("rest", "app-" + UUID.randomUUID()));
        Counting stats = new Counting(new StatsMonitor(context));

        assertSharedAnswers(stats, key);
    }

    private void assertSharedAnswers(Counting plugin, String key) throws Exception {
        for (String uuid : List.of("u-1", "u-2", "u-3")) {
            JobKeys.write(bed.redis, key, uuid).join();
        }

        List<ILoggingEvent> logged;
        try (CapturedLog log = CapturedLog.start(JobProcessor.class, Level.INFO)) {
            bed.processor.process(plugin, key);
            logged = log.events();
        }

        assertEquals(1, plugin.handled, "handled once for the three requests of the pass");
        assertEquals(List.of("u-2", "u-3"), logged.stream().filter(event -> event.getFormattedMessage().startsWith("Received"))
                .flatMap(event -> event.getKeyValuePairs().stream()).filter(pair -> pair.key.equals("uuid"))
                .map(pair -> String.valueOf(pair.value)).toList(), "the others said as received too");
        List<JsonNode> answers = sent();
        assertEquals(List.of("u-1", "u-2", "u-3"), answers.stream().map(answer -> answer.path("uuid").asText()).toList());
        List<String> fieldOrder = new ArrayList<>();
        answers.getFirst().fieldNames().forEachRemaining(fieldOrder::add);
        for (JsonNode answer : answers) {
            List<String> names = new ArrayList<>();
            answer.fieldNames().forEachRemaining(names::add);
            assertEquals(fieldOrder, names, "each answer keeps the fields' order, uuid in its place");
            assertEquals(withoutUuid(answers.getFirst()), withoutUuid(answer));
        }
        assertEquals(0L, bed.redis.sync().exists(key));

        JobKeys.write(bed.redis, key, "u-4").join();
        bed.processor.process(plugin, key);
        assertEquals(2, plugin.handled, "a request of a later pass is worked out again, as fresh as it can be");
    }

    private String key(String key) {
        keys.add(key);
        return key;
    }

    private List<JsonNode> sent() throws Exception {
        List<JsonNode> answers = new ArrayList<>();
        for (ProducerRecord<String, byte[]> record : bed.kafka.history()) {
            answers.add(JSON.readTree(record.value()));
        }
        return answers;
    }

    private static JsonNode withoutUuid(JsonNode answer) {
        ObjectNode copy = answer.deepCopy();
        copy.remove("uuid");
        return copy;
    }

    /** A real plugin whose handling is counted. */
    private static final class Counting implements JobPlugin {

        private final JobPlugin plugin;
        private int handled;

        Counting(JobPlugin plugin) {
            this.plugin = plugin;
        }

        @Override
        public String name() {
            return plugin.name();
        }

        @Override
        public String pattern() {
            return plugin.pattern();
        }

        @Override
        public List<Answer> handle(Job job) throws Exception {
            handled++;
            return plugin.handle(job);
        }

        @Override
        public boolean answersByKey() {
            return plugin.answersByKey();
        }
    }
}
