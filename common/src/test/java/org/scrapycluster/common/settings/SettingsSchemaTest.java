package org.scrapycluster.common.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class SettingsSchemaTest {

    @Test
    void everyServiceFileLoadsAndDocumentsEverySetting() {
        for (String service : SettingsSchema.SERVICES) {
            SettingsSchema schema = SettingsSchema.load(service);
            assertFalse(schema.declarations().isEmpty(), service);
            schema.declarations().forEach(d -> assertFalse(d.doc().isBlank(), d.name()));
            assertFalse(schema.files().getLast().description().isBlank(), service + " file description");
        }
    }

    @Test
    void aDocCommentDeclaresTheTypeOfANullDefault() {
        SettingsSchema schema = schema("""
                # A service for tests.

                # [int] Most of something; null for no limit.
                LIMIT: null
                # Seconds between rounds.
                PAUSE: 2
                """);
        SettingDeclaration limit = schema.get("LIMIT");
        assertEquals(SettingType.INT, limit.type());
        assertEquals("Most of something; null for no limit.", limit.doc());
        assertNull(limit.defaultValue());
        assertEquals(SettingType.INT, schema.get("PAUSE").type());
        assertEquals("A service for tests.", schema.files().getLast().description());
    }

    /** Empty text is null where null is allowed, unless the tag keeps it: then it is an empty string, from every layer. */
    @Test
    void aStringTagMayKeepEmptyTextInsteadOfNull() {
        SettingsSchema schema = schema("""
                # A service for tests.

                # [string, empty kept] Key; null for the default one, empty for none.
                KEY: null
                # [string] Name.
                NAME: null
                """);
        SettingDeclaration key = schema.get("KEY");
        assertTrue(key.keepsEmpty());
        assertEquals("Key; null for the default one, empty for none.", key.doc());
        assertEquals("", key.fromText("", true));
        assertEquals("", key.fromYaml(""));
        assertNull(key.fromYaml(null));
        assertEquals("k", key.fromText("k", true));
        assertFalse(schema.get("NAME").keepsEmpty());
        assertNull(schema.get("NAME").fromText("", true));
    }

    /** A secret's value is never quoted when it does not convert; the tag comes last, after empty kept. */
    @Test
    void aTypeTagMayMarkASecret() {
        SettingsSchema schema = schema("""
                # A service for tests.

                # [string, empty kept, secret] Password; empty for none.
                PASSWORD: null
                # [map, secret] Client properties.
                PROPERTIES: {}
                # [string] Name.
                NAME: null
                """);
        SettingDeclaration password = schema.get("PASSWORD");
        assertTrue(password.secret() && password.keepsEmpty());
        assertEquals("Password; empty for none.", password.doc());
        assertTrue(schema.get("PROPERTIES").secret());
        assertFalse(schema.get("NAME").secret());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> schema.get("PROPERTIES").fromText("{a: hunter2", false));
        assertFalse(refused.getMessage().contains("hunter2"), refused.getMessage());
        IllegalArgumentException quoted = assertThrows(IllegalArgumentException.class,
                () -> schema.get("NAME").fromYaml(List.of("visible")));
        assertTrue(quoted.getMessage().contains("visible"), quoted.getMessage());
    }

    @Test
    void aTypeTagWidensANumericDefault() {
        assertEquals(5.0, schema("# [double] Seconds.\nWAIT: 5\n").get("WAIT").defaultValue());
    }

    @Test
    void malformedDeclarationsAreRejected() {
        assertMessage("defaults to null", "# Password.\nPASSWORD: null\n");
        assertMessage("needs a comment line", "HOST: x\n");
        assertMessage("is not a setting name", "# Host.\nhost: x\n");
        assertMessage("unknown type tag", "# [text] Host.\nHOST: null\n");
        assertMessage("keeps empty text but is not a [string]", "# [int, empty kept] Limit.\nLIMIT: null\n");
        assertMessage("does not fit", "# [int] Host.\nHOST: abc\n");
        assertMessage("not valid YAML", "# Host.\nHOST: x\n# Host again.\nHOST: y\n");
    }

    @Test
    void aServiceFileRestatesAnIncludedDefaultKeepingItsTypeAndDoc() {
        Map<String, String> files = Map.of(
                "svc", "# Service.\ninclude: [shared]\n\nTIMEOUT: 7\n",
                "shared", "# Seconds to wait.\nTIMEOUT: 1.5\n");
        SettingDeclaration timeout = SettingsSchema.load("svc", files::get).get("TIMEOUT");
        assertEquals(SettingType.DOUBLE, timeout.type());
        assertEquals(7.0, timeout.defaultValue());
        assertEquals("Seconds to wait.", timeout.doc());

        Map<String, String> clash = Map.of(
                "svc", "# Service.\ninclude: [shared]\n\nTIMEOUT: soon\n",
                "shared", "# Seconds to wait.\nTIMEOUT: 1.5\n");
        SettingsException e = assertThrows(SettingsException.class, () -> SettingsSchema.load("svc", clash::get));
        assertTrue(e.getMessage().contains("does not fit the double"), e.getMessage());
    }

    @Test
    void servicesAgreeOnTheTypeOfEverySharedName() {
        SettingsGroup group = SettingsGroup.load(SettingsSchema.SERVICES, SettingsSources.none());
        assertEquals(SettingsSchema.SERVICES, group.services());
    }

    private static SettingsSchema schema(String text) {
        return SettingsSchema.load("svc", name -> text);
    }

    private static void assertMessage(String expected, String text) {
        SettingsException e = assertThrows(SettingsException.class, () -> schema(text));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
