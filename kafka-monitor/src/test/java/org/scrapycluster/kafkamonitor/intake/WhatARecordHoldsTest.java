package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.RawValue;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.kafkamonitor.dispatch.PluginSet;
import org.scrapycluster.kafkamonitor.dispatch.RankedPlugin;
import org.scrapycluster.kafkamonitor.rejection.Rejection;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * What the monitor keeps of a record once it is decided, until its batch is committed: about the record's bytes, and
 * no parsed tree, which costs tens of times more (a batch of such records once exhausted the heap).
 */
class WhatARecordHoldsTest {

    private static final Settings SETTINGS = Settings.defaults("kafka-monitor");
    private static final RequestIntake INTAKE = new RequestIntake(new Json(JsonLimits.from(SETTINGS)), PluginSet.load(SETTINGS),
            Clock.systemUTC());

    /** A crawl request of about 1 MiB whose {@code attrs} holds a third of a million empty objects. */
    private static byte[] crawlWithEmptyObjects(String appid, String more) {
        StringBuilder request = new StringBuilder("{\"url\":\"http://example.com/\",\"appid\":\"" + appid
                + "\",\"crawlid\":\"c1\",\"spiderid\":\"link\"," + more + "\"attrs\":{\"x\":[{}");
        while (request.length() < 1_040_000) {
            request.append(",{}");
        }
        return request.append("]}}").toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anAcceptedRequestHoldsItsTextNotItsParsedTree() {
        byte[] record = crawlWithEmptyObjects("app1", "");

        Disposition.Accepted accepted = assertInstanceOf(Disposition.Accepted.class, INTAKE.take(record));

        Retained retained = Retained.by(accepted, RankedPlugin.class);
        assertEquals(0, retained.jsonTrees(), "no parsed tree");
        // its member in the queue and its text for the log line: two copies of the record, not forty
        assertTrue(retained.textBytes() < 3L * record.length, retained + " for a record of " + record.length + " bytes");
        assertEquals("app1", accepted.request().field("appid"));
        assertEquals("0", accepted.request().field("expires"), "a number as its text, the default filled in");
        assertEquals(Optional.empty(), accepted.request().recipient(), "a crawl request has no uuid");
    }

    @Test
    void aRejectedRequestHoldsWhomToAnswerNotItsParsedTree() {
        byte[] record = crawlWithEmptyObjects("app:1", "\"uuid\":\"u1\",");

        Disposition.Rejected rejected = assertInstanceOf(Disposition.Rejected.class, INTAKE.take(record));

        Retained retained = Retained.by(rejected, RankedPlugin.class);
        assertEquals(0, retained.jsonTrees(), "no parsed tree");
        assertTrue(retained.textBytes() < 10_000, retained.toString());
        assertTrue(rejected.rejection().parsed());
        assertEquals(Optional.of(new Rejection.Recipient("app:1", "u1")), rejected.rejection().recipient());
    }

    @Test
    void theLogLineOfAnAcceptedRequestShowsEachFieldAsTheRequestHadItButItsCookie() throws Exception {
        byte[] record = ("{\"url\":\"http://example.com/\",\"appid\":\"app1\",\"crawlid\":\"c1\",\"spiderid\":\"link\","
                + "\"priority\":7,\"cookie\":\"session=abc123\",\"attrs\":{\"a\":[1,{\"b\":null}],\"c\":\"d\"}}")
                .getBytes(StandardCharsets.UTF_8);
        Disposition.Accepted accepted = assertInstanceOf(Disposition.Accepted.class, INTAKE.take(record));

        List<ILoggingEvent> logged;
        try (CapturedLog log = CapturedLog.start(IntakeLog.class, Level.INFO)) {
            IntakeLog.accepted(accepted, "Added crawl to Redis");
            logged = log.events();
        }

        Map<String, Object> fields = new LinkedHashMap<>();
        logged.getFirst().getKeyValuePairs().forEach(pair -> fields.put(pair.key, pair.value));
        assertEquals("app1", fields.get("appid"));
        assertEquals(7, fields.get("priority"));
        assertTrue(fields.containsKey("useragent") && fields.get("useragent") == null, "a default of null: " + fields);
        ObjectMapper mapper = new ObjectMapper();
        assertEquals(mapper.readTree("{\"a\":[1,{\"b\":null}],\"c\":\"d\"}"), 
                mapper.readTree(mapper.writeValueAsString(fields.get("attrs"))), "an object written in place");
        RawValue ts = assertInstanceOf(RawValue.class, fields.get("ts"));
        assertTrue(ts.rawValue().toString().matches("[0-9]{10}\\.[0-9]{6}"), "ts with its six decimals: " + ts.rawValue());
        assertEquals(true, fields.get("parsed"));
        assertEquals("[redacted]", fields.get("cookie"), "a site's session is not logged");
    }
}
