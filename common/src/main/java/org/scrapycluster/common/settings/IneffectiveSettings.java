package org.scrapycluster.common.settings;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings a service declares only so that the original's settings files still load, and which do nothing here: their
 * doc opens with {@value #MARK} ({@code SCHEDULER_PERSIST}, {@code STATS_CYCLE}, ...; docs/differences.md). One the user
 * gave is said at WARN when the service is checked or started, so that nobody tunes a value that changes nothing.
 */
public final class IneffectiveSettings {

    /** How the doc of such a setting opens in its defaults file. */
    static final String MARK = "Accepted for compatibility";

    private static final Logger LOG = LoggerFactory.getLogger(IneffectiveSettings.class);

    private IneffectiveSettings() {
    }

    /** The names of such settings that {@code settings} has from the user, each with where its value came from. */
    public static List<String> given(Settings settings) {
        return settings.declarations().stream()
                .filter(declaration -> declaration.doc().startsWith(MARK) && settings.isUserSet(declaration.name()))
                .map(declaration -> declaration.name() + " (from " + settings.layerOf(declaration.name()).description() + ")")
                .toList();
    }

    /** Says, in one WARN line, the settings {@link #given} names for {@code settings}' service; nothing when there are none. */
    public static void warn(Settings settings) {
        List<String> given = given(settings);
        if (!given.isEmpty()) {
            LOG.atWarn().addKeyValue("service", settings.service()).addKeyValue("settings", given)
                    .log("{} has no use for {}: accepted so that the original's settings files load, without effect here"
                            + " (docs/differences.md)", settings.service(), String.join(", ", given));
        }
    }
}
