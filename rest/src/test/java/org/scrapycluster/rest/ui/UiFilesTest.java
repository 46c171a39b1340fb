package org.scrapycluster.rest.ui;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.rest.http.HttpCall;
import org.scrapycluster.rest.http.RefusedRequestException;

/** The page is served with the gateway's settings for its timing, which the script reads from its {@code <meta>} elements. */
class UiFilesTest {

    @Test
    void thePageCarriesTheHealthRefreshOfTheSettings() throws RefusedRequestException {
        assertTrue(page(Map.of()).contains("<meta name=\"health-refresh-seconds\" content=\"5.0\">"), "the default");
        String page = page(Map.of("UI_HEALTH_REFRESH_SECONDS", "1.5"));
        assertTrue(page.contains("<meta name=\"health-refresh-seconds\" content=\"1.5\">"), page);
        assertFalse(page.contains("${"), "every setting of the page is filled in");
    }

    @Test
    void thePageCarriesTheReadTimeoutOfTheSettings() throws RefusedRequestException {
        assertTrue(page(Map.of()).contains("<meta name=\"read-timeout-seconds\" content=\"10.0\">"), "the default");
        String page = page(Map.of("UI_READ_TIMEOUT_SECONDS", "2"));
        assertTrue(page.contains("<meta name=\"read-timeout-seconds\" content=\"2.0\">"), page);
    }

    /** The crawl form takes what the crawl request schema takes, so that the browser says what is out of bounds. */
    @Test
    void theCrawlFormHasTheBoundsOfTheCrawlRequestSchema() throws Exception {
        JsonNode fields;
        try (InputStream schema = UiFilesTest.class.getResourceAsStream("/schemas/scraper_schema.json")) {
            fields = new ObjectMapper().readTree(schema).path("properties");
        }
        String page = page(Map.of());
        JsonNode appid = fields.path("appid");
        assertTrue(page.contains("<input name=\"appid\" value=\"webui\" required minlength=\"" + appid.path("minLength").asInt()
                + "\" maxlength=\"" + appid.path("maxLength").asInt() + "\">"), "appid");
        int crawlidLength = fields.path("crawlid").path("maxLength").asInt();
        assertTrue(page.contains("<input name=\"crawlid\" required maxlength=\"" + crawlidLength + "\">"),
                "crawlid");
        for (String number : List.of("maxdepth", "priority")) {
            JsonNode field = fields.path(number);
            assertTrue(page.contains("<input name=\"" + number + "\" type=\"number\" min=\"" + field.path("minimum").asInt() + "\" max=\""
                    + field.path("maximum").asInt() + "\" value=\"" + field.path("default").asInt() + "\" required>"), number);
        }
    }

    @Test
    void aHealthRefreshUnderATenthOfASecondIsRefused() {
        Settings settings = settings(Map.of("UI_HEALTH_REFRESH_SECONDS", "0.01"));
        SettingsException refused = assertThrows(SettingsException.class, () -> new UiFiles(settings));
        assertTrue(refused.getMessage().contains("UI_HEALTH_REFRESH_SECONDS") && refused.getMessage().contains("at least 0.1"),
                refused.getMessage());
    }

    @Test
    void aWaitBeyondADayIsRefused() {
        Settings settings = settings(Map.of("UI_READ_TIMEOUT_SECONDS", "3000000"));
        SettingsException refused = assertThrows(SettingsException.class, () -> new UiFiles(settings));
        assertTrue(refused.getMessage().contains("UI_READ_TIMEOUT_SECONDS") && refused.getMessage().contains("at most 86400 (a day)"),
                refused.getMessage());
    }

    private static String page(Map<String, String> values) throws RefusedRequestException {
        byte[] body = new UiFiles(settings(values)).answer(new HttpCall(HttpMethod.GET, UiFiles.PREFIX, null, new byte[0])).body();
        return new String(body, StandardCharsets.UTF_8);
    }

    private static Settings settings(Map<String, String> values) {
        return Settings.load("rest", new SettingsSources(null, Map.of(), values));
    }
}
