package org.scrapycluster.kafkamonitor.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** How {@code dump} shows a message whose body is longer than a JSON parser takes by default. */
class MessageRendererTest {

    @Test
    void aBodyOfMoreThanTwentyMillionCharactersIsDroppedAsAnyBodyIsNotPrintedWithTheMessage() {
        String message = "{\"url\":\"http://example.com/\",\"body\":\"" + "QUFB".repeat(5_500_000) + "\",\"status_code\":200}";

        String shown = new MessageRenderer(false, false, MessageRenderer.Body.DROP).render(message.getBytes(StandardCharsets.US_ASCII));

        assertEquals("{\"url\":\"http://example.com/\",\"status_code\":200}", shown);
    }
}
