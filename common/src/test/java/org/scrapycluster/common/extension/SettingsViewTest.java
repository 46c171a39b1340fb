package org.scrapycluster.common.extension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;

/** An extension's own settings, from the environment, read as the service reads its declared ones. */
class SettingsViewTest {

    private static final Settings SETTINGS = Settings.load("crawler", new SettingsSources(null, Map.of(), Map.of()));

    private static SettingsView withEnvironment(Map<String, String> environment) {
        return new SettingsView(SETTINGS, environment::get);
    }

    @Test
    void anOwnListIsCommaSeparatedOrAYamlFlowList() {
        SettingsView view = withEnvironment(Map.of("MY_HOSTS", "a.test, b.test", "MY_PORTS", "[80, 8080]", "MY_NONE", ""));

        assertEquals(List.of("a.test", "b.test"), view.list("MY_HOSTS"));
        assertEquals(List.of("80", "8080"), view.list("MY_PORTS"));
        assertEquals(List.of(), view.list("MY_NONE"));
        assertEquals(List.of(), view.list("MY_UNSET"));
        String broken = assertThrows(IllegalArgumentException.class, () -> withEnvironment(Map.of("MY_BROKEN", "[a,")).list("MY_BROKEN"))
                .getMessage();
        assertTrue(broken.startsWith("MY_BROKEN: \"[a,\" is not valid YAML"), broken);
    }

    @Test
    void anOwnMapIsAYamlFlowMapAndOtherTextAnError() {
        SettingsView view = withEnvironment(Map.of("MY_LIMITS", "{retries: 3, host: a.test}", "MY_TEXT", "retries=3", "MY_NONE", ""));

        assertEquals(Map.of("retries", 3, "host", "a.test"), view.map("MY_LIMITS"));
        assertEquals(Map.of(), view.map("MY_NONE"));
        assertEquals(Map.of(), view.map("MY_UNSET"));
        String notAMap = assertThrows(IllegalArgumentException.class, () -> view.map("MY_TEXT")).getMessage();
        assertTrue(notAMap.startsWith("MY_TEXT: "), notAMap);
        assertThrows(IllegalArgumentException.class, () -> withEnvironment(Map.of("MY_BROKEN", "{retries: 3")).map("MY_BROKEN"));
    }

    /** An own flag is true, false, 1 or 0 as a declared one is; {@code yes} or a typo is an error, not a quiet false. */
    @Test
    void anOwnFlagIsTrueFalseOneOrZeroAndOtherTextAnError() {
        SettingsView view = withEnvironment(Map.of("MY_ON", "TRUE", "MY_ONE", "1", "MY_OFF", "false", "MY_NONE", "", "MY_YES", "yes"));

        assertTrue(view.flag("MY_ON", false));
        assertTrue(view.flag("MY_ONE", false));
        assertFalse(view.flag("MY_OFF", true));
        assertFalse(view.flag("MY_NONE", true), "empty is false, as a declared boolean's empty variable");
        assertTrue(view.flag("MY_UNSET", true));
        boolean obey = SETTINGS.getBoolean("ROBOTSTXT_OBEY");
        assertEquals(obey, view.flag("ROBOTSTXT_OBEY", !obey), "declared: as the service has it");
        String yes = assertThrows(IllegalArgumentException.class, () -> view.flag("MY_YES", false)).getMessage();
        assertEquals("MY_YES is 'yes'; it must be true, false, 1 or 0", yes);
    }

    @Test
    void aDeclaredSettingIsReadAsTheServiceHasItNotFromTheEnvironment() {
        SettingsView view = withEnvironment(Map.of("SPIDER_NAME", "elsewhere"));

        assertEquals(SETTINGS.getString("SPIDER_NAME"), view.text("SPIDER_NAME", "none"));
        assertEquals(List.of(SETTINGS.getString("SPIDER_NAME")), view.list("SPIDER_NAME"));
    }

    @Test
    void aNumberWithAFractionIsNoWholeNumber() {
        Settings halves = Settings.load("crawler", new SettingsSources(null, Map.of(), Map.of("SCHEDULER_DISCOVERY_INTERVAL", "2.5")));
        SettingsView view = new SettingsView(halves, Map.of("MY_WHOLE", "12", "MY_HALF", "2.5", "MY_THOUSAND", "1e3")::get);

        assertEquals(12, view.number("MY_WHOLE", 0));
        assertEquals(1_000, view.number("MY_THOUSAND", 0), "1e3 is whole");
        assertEquals(60, view.number("DNS_TIMEOUT", 0), "60.0 is whole");
        assertThrows(IllegalArgumentException.class, () -> view.number("SCHEDULER_DISCOVERY_INTERVAL", 0), "not 2");
        assertThrows(IllegalArgumentException.class, () -> view.number("MY_HALF", 0));
        assertEquals(7, view.number("MY_UNSET", 7));
    }
}
