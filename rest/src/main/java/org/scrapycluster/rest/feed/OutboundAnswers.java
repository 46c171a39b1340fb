package org.scrapycluster.rest.feed;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.scrapycluster.common.bytes.BytePrefix;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.json.UnicodeText;
import org.scrapycluster.rest.poll.ParkedAnswers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What becomes of each message of the outbound topic (docs/compatibility.md §6.4 step 5): one that is not
 * JSON is logged ({@code Unparseable JSON Received from kafka}) and counted; one without a string
 * {@code uuid} (an expire or completion notice) goes to the live view's crawl ends, and so does a stop's answer, whoever
 * asked for it (a stopped crawl is announced by nothing else); one a caller of this gateway waits for is handed to
 * it; any other is parked in Redis for {@code /poll}, unless its uuid is not Unicode text (logged and counted as
 * unreadable: it would take the key of another uuid) or one no {@code /poll} call can ask for (counted as ignored).
 * Every gateway reads every message, so whichever gateway a client polls finds the answer.
 */
public final class OutboundAnswers implements Consumer<byte[]> {

    private static final Logger LOG = LoggerFactory.getLogger(OutboundAnswers.class);

    private final Json json;
    private final PendingAnswers pending;
    private final ParkedAnswers parked;
    private final Counter delivered;
    private final Counter ignored;
    private final Counter unreadable;
    private final Consumer<JsonNode> crawlEnds;

    /** @param crawlEnds takes the messages without a uuid, and the answers to stops */
    public OutboundAnswers(Json json, PendingAnswers pending, ParkedAnswers parked, Consumer<JsonNode> crawlEnds, MeterRegistry meters) {
        this.json = json;
        this.crawlEnds = crawlEnds;
        this.pending = pending;
        this.parked = parked;
        this.delivered = ParkedAnswers.answers(meters, "delivered");
        this.ignored = ParkedAnswers.answers(meters, "ignored");
        this.unreadable = ParkedAnswers.answers(meters, "unreadable");
    }

    @Override
    public void accept(byte[] message) {
        JsonNode answer;
        try {
            answer = json.readTree(message);
        } catch (JsonInputException e) {
            unreadable.increment();
            LOG.atWarn().addKeyValue("error", e.getMessage()).log("Unparseable JSON Received from kafka");
            return;
        }
        JsonNode uuid = answer.get("uuid");
        if (uuid == null || !uuid.isTextual()) {
            ignored.increment();
            crawlEnds.accept(answer);
            return;
        }
        if (answer.path("action").asText().equals("stop")) {
            crawlEnds.accept(answer);
        }
        if (pending.deliver(uuid.asText(), answer)) {
            delivered.increment();
            return;
        }
        Optional<String> notUnicode = UnicodeText.whyNot(uuid.asText());
        if (notUnicode.isPresent()) {
            unreadable.increment();
            LOG.atWarn().addKeyValue("error", notUnicode.get()).log("An answer's uuid is not Unicode text: it is not parked");
            return;
        }
        // parked without a byte order mark, which the reader skipped here but /poll's reading of the text would not
        int start = BytePrefix.UTF_8_MARK.starts(message) ? BytePrefix.UTF_8_MARK.length() : 0;
        if (!parked.park(uuid.asText(), new String(message, start, message.length - start, StandardCharsets.UTF_8))) {
            ignored.increment();
        }
    }
}
