package org.scrapycluster.redismonitor.job;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The answers of a job's values that Kafka did not take, as they wait in {@code jobs:<job key>:answers}: one
 * field a value, whose text is the answers worked out for it. Whichever monitor handles the job next sends them
 * instead of doing the work again, which for a stop would find nothing left to purge.
 */
final class StoredAnswers {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<List<Stored>> LIST = new TypeReference<>() {
    };

    /** One answer as it is stored. */
    private record Stored(String appid, LinkedHashMap<String, Object> fields, String sentMessage) {
    }

    private StoredAnswers() {
    }

    /** The hash fields to write: each value's answers as text. */
    static Map<String, String> encode(Map<String, List<Answer>> byValue) {
        Map<String, String> fields = new LinkedHashMap<>();
        byValue.forEach((value, answers) -> {
            List<Stored> stored = answers.stream().map(answer -> new Stored(answer.appid(), new LinkedHashMap<>(answer.fields()),
                    answer.sentMessage())).toList();
            try {
                fields.put(value, JSON.writeValueAsString(stored));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("an answer that is not JSON: " + answers, e);
            }
        });
        return fields;
    }

    /** The answers a value's stored text holds; none when the text cannot be read (it is then worked out again). */
    static List<Answer> decode(String text) {
        try {
            List<Answer> answers = new ArrayList<>();
            for (Stored stored : JSON.readValue(text, LIST)) {
                answers.add(new Answer(stored.appid(), stored.fields(), stored.sentMessage()));
            }
            return answers;
        } catch (JsonProcessingException | RuntimeException e) {
            return null;
        }
    }
}
