package org.scrapycluster.kafkamonitor.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.scrapycluster.kafkamonitor.testing.SchemalessHandler;

/** A plugin's schema file that cannot be used says why, for the start-up error that names the plugin. */
class PluginSchemasTest {

    @Test
    void aSchemaThatIsNotJsonIsSaidToBeSoWithWhere() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> PluginSchemas.resource(SchemalessHandler.class, "trailing_comma_schema.json"));
        assertEquals("The schema trailing_comma_schema.json of the plugin " + SchemalessHandler.class.getName()
                + " is not valid JSON: Unexpected character ('}' (code 125)): was expecting double-quote to start field name"
                + ", at line 3, column 1", refused.getMessage());
    }

    @Test
    void aMissingSchemaIsSaidToBeMissing() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> PluginSchemas.resource(SchemalessHandler.class, "no_such_schema.json"));
        assertEquals("The schema no_such_schema.json of the plugin " + SchemalessHandler.class.getName() + " is not on the class path",
                refused.getMessage());
    }
}
