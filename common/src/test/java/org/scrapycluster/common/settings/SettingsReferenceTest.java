package org.scrapycluster.common.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/settings.md} in step with {@code config/*.yml}: fails when they differ, and
 * rewrites the page when run with {@code -Dsettings.doc.write=true}.
 */
class SettingsReferenceTest {

    private static final Path PAGE = Path.of("..", "docs", "settings.md");

    @Test
    void theSettingsPageIsUpToDate() throws IOException {
        String rendered = SettingsReference.render(SettingsSchema.SERVICES);
        if (Boolean.getBoolean("settings.doc.write")) {
            Files.writeString(PAGE, rendered);
        }
        assertTrue(Files.exists(PAGE), PAGE.toAbsolutePath() + " is missing");
        assertEquals(rendered, Files.readString(PAGE), "docs/settings.md is out of date; regenerate it as its header says");
    }

    @Test
    void everySettingOfEveryServiceIsOnThePage() {
        String rendered = SettingsReference.render(SettingsSchema.SERVICES);
        for (String service : SettingsSchema.SERVICES) {
            SettingsSchema.load(service).declarations().forEach(d ->
                    assertTrue(rendered.contains("| `" + d.name() + "` |"), d.name()));
        }
        assertTrue(rendered.contains("| `PLUGINS` | map | `{plugins.scraper_handler.ScraperHandler: 100,"), rendered);
        assertTrue(rendered.contains("| `REDIS_PASSWORD` | string, *secret* | null |"), rendered);
    }
}
