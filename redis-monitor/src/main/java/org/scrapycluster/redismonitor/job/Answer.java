package org.scrapycluster.redismonitor.job;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One message a job sends on the outbound topic(s): its JSON fields in order, the appid that
 * chooses {@code <prefix>.outbound_<appid>}, and what to log once Kafka has taken it
 * ({@code Sent info to kafka}, docs/compatibility.md §7.9).
 *
 * @param appid       the requester's application
 * @param fields      the message, written as a JSON object in this order
 * @param sentMessage the log message once sent
 */
public record Answer(String appid, Map<String, Object> fields, String sentMessage) {

    public Answer {
        Objects.requireNonNull(appid, "appid");
        Objects.requireNonNull(sentMessage, "sentMessage");
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** This answer for another request of the same job: its {@code uuid} field (in its place) is {@code uuid}. */
    public Answer forRequest(String uuid) {
        Map<String, Object> addressed = new LinkedHashMap<>(fields);
        addressed.put("uuid", uuid);
        return new Answer(appid, addressed, sentMessage);
    }
}
