package org.scrapycluster.rest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.InetAddress;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.domain.AllowedHosts;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.slf4j.LoggerFactory;

/** The access log line of a call stays one line, whatever its path decodes to. */
class AccessLogTest {

    private final Logger log = (Logger) LoggerFactory.getLogger(Dispatcher.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeEach
    void capture() {
        logged.start();
        log.addAppender(logged);
        log.setLevel(Level.INFO);
    }

    @AfterEach
    void release() {
        log.detachAppender(logged);
    }

    @Test
    void aPathWithLineBreaksCannotStartALogLineOfItsOwn() {
        // GET /x%0a2026-11-28%2010:00:00,000%20[rest-service]%20ERROR:%20... decodes to this path
        String path = "/x\n2026-11-28 10:00:00,000 [rest-service] ERROR: forged\r\u0085\u2028";
        Envelope envelope = new Envelope(new Json(new JsonLimits(64, 1_000_000, 1_048_576)));
        Dispatcher dispatcher = new Dispatcher(Router.builder().build(), key -> new Caller(Access.WRITE, true, null),
                AllowedHosts.of(InetAddress.getLoopbackAddress(), List.of()), envelope, new HttpMetrics(new SimpleMeterRegistry()), true);

        dispatcher.answer(new HttpCall(HttpMethod.GET, path, "", new byte[0]));

        List<String> messages = logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertEquals(2, messages.size(), messages.toString());
        for (String message : messages) {
            assertFalse(message.chars().anyMatch(c -> c == '\n' || c == '\r' || c == 0x85 || c == 0x2028), message);
        }
        assertEquals("GET /x\\n2026-11-28 10:00:00,000 [rest-service] ERROR: forged\\r\\u0085\\u2028 404", messages.get(1));
    }
}
