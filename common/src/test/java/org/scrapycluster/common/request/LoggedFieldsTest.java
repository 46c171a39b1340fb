package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.logging.ShownText;

class LoggedFieldsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void aCookieIsShownRedactedWhateverItsShapeAndOtherFieldsAsTheyAre() {
        assertEquals(LoggedFields.REDACTED, LoggedFields.shown("cookie", "session=abc123"));
        assertEquals(LoggedFields.REDACTED, LoggedFields.shown("cookie", MAPPER.createObjectNode().put("session", "abc123")));
        assertEquals("Mozilla/5.0", LoggedFields.shown("useragent", "Mozilla/5.0"));
        assertNull(LoggedFields.shown("cookie", null), "no cookie is nothing to hide");
    }

    @Test
    void aRequestWithACookieIsShownAsACopyWithoutItsValue() throws Exception {
        JsonNode request = MAPPER.readTree("{\"url\":\"http://example.com/\",\"appid\":\"a\",\"crawlid\":\"c\","
                + "\"cookie\":{\"session\":\"abc123\"},\"attrs\":{\"cookie\":\"kept\"}}");

        JsonNode shown = LoggedFields.shown(request);

        assertEquals(MAPPER.readTree("{\"url\":\"http://example.com/\",\"appid\":\"a\",\"crawlid\":\"c\","
                + "\"cookie\":\"[redacted]\",\"attrs\":{\"cookie\":\"kept\"}}"), shown, "only the request's own field");
        assertEquals("abc123", request.path("cookie").path("session").asText(), "the request itself is left as it is");
    }

    @Test
    void aRequestWithoutACookieIsShownAsItIs() throws Exception {
        JsonNode request = MAPPER.readTree("{\"url\":\"http://example.com/\",\"cookie\":null}");
        assertSame(request, LoggedFields.shown(request));
        JsonNode notAnObject = MAPPER.readTree("[\"cookie\"]");
        assertSame(notAnObject, LoggedFields.shown(notAnObject));
    }

    @Test
    void aLongRequestIsLoggedCutToItsFirstCharactersAndItsLength() {
        JsonNode request = MAPPER.createObjectNode().put("poll_id", "x".repeat(500_000));

        String text = LoggedFields.text(request);

        assertEquals("{\"poll_id\":\"" + "x".repeat(ShownText.MAX_CHARACTERS - 12) + "… (500014 characters in all)", text);
        assertEquals("{\"appid\":\"a\"}", LoggedFields.text(MAPPER.createObjectNode().put("appid", "a")), "a short one as it is");
    }

    @Test
    void onlyTextThatSpellsACredentialOrEscapesSomethingMayHoldOne() {
        assertTrue(LoggedFields.mayHoldCredential(utf8("{\"cookie\":\"a=b\"}")));
        assertTrue(LoggedFields.mayHoldCredential(utf8("{\"\\u0063ookie\":\"a=b\"}")), "a name written with an escape");
        assertFalse(LoggedFields.mayHoldCredential(utf8("{\"url\":\"http://example.com/\",\"appid\":\"a\"}")));
    }

    /** A record that is not JSON still shows no cookie value that its text quotes, cut short or sent as a Python dict. */
    @Test
    void aCookieQuotedInTextThatIsNotJsonIsRedacted() {
        assertEquals("{\"url\":\"http://a.example/\",\"cookie\": \"[redacted]\",\"bogus\":",
                LoggedFields.redactedText("{\"url\":\"http://a.example/\",\"cookie\": \"session=CookieSecret_774\",\"bogus\":"));
        assertEquals("{'cookie': '[redacted]', 'url': 'http://a.example/'}",
                LoggedFields.redactedText("{'cookie': 'session=it\\'s', 'url': 'http://a.example/'}"));
        assertEquals("{\"cookie\":\"[redacted]\"", LoggedFields.redactedText("{\"cookie\":\"session=cut sh"), "a value cut short");
        assertEquals("{\"cookie\":\"[redacted]\"}", LoggedFields.redactedText("{\"cookie\":\"a\\\nb=secret\"}"),
                "an escaped line break in it");
        assertEquals("{\"url\":\"http://a.example/?cookie=1\"", LoggedFields.redactedText("{\"url\":\"http://a.example/?cookie=1\""));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
