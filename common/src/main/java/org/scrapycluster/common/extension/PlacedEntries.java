package org.scrapycluster.common.extension;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.scrapycluster.common.settings.Settings;

/**
 * Reads an ordered map setting, name → place, as docs/extending.md ("How an extension is loaded") says. Every entry, a
 * null one too, must name an extension: a null entry that matches none would remove nothing without a word. A user's
 * map merges over the defaults key by key, so an entry that names an extension the defaults list under another of its
 * names ({@code ActionHandler} for {@code plugins.action_handler.ActionHandler}) replaces the default entry, re-ranking or
 * (null) removing it, rather than listing the extension twice; two entries written above the defaults that give one
 * extension a place are an error, while a null one beside one that places it only removes the default entry (as
 * {@code {plugins.action_handler.ActionHandler: null, <its class>: 20}} always did). The entries left, null ones
 * dropped, are in ascending place, each place given once.
 */
final class PlacedEntries {

    private PlacedEntries() {
    }

    /**
     * The entries of {@code setting} that stand, in ascending place.
     *
     * @param noun        what a place is called in errors, "order" or "rank"
     * @param extensionOf the class of the extension a name stands for; throws when the name matches none
     */
    static List<PlacedEntry> of(Settings settings, String setting, String noun, UnaryOperator<String> extensionOf) {
        Map<String, Object> entries = settings.getMap(setting);
        Set<String> replaced = replacedDefaults(settings, setting, entries, extensionOf);
        Map<Long, String> places = new HashMap<>();
        List<PlacedEntry> placed = new ArrayList<>();
        entries.forEach((name, value) -> {
            if (value == null || replaced.contains(name)) {
                return;
            }
            long place = settings.getPlace(setting, name, value, noun);
            String earlier = places.putIfAbsent(place, name);
            if (earlier != null) {
                throw settings.invalid(setting, "gives the " + noun + " " + place + " to both " + earlier + " and " + name
                        + "; every entry needs " + (noun.startsWith("o") ? "an " : "a ") + noun + " of its own");
            }
            placed.add(new PlacedEntry(name, place));
        });
        placed.sort(Comparator.comparingLong(PlacedEntry::place));
        return List.copyOf(placed);
    }

    /**
     * The default entries of {@code entries} that an entry written above the defaults replaces, naming their extension
     * under another name.
     *
     * @throws org.scrapycluster.common.settings.SettingsException when a name matches no extension, or two entries written
     *         above the defaults give one a place
     */
    private static Set<String> replacedDefaults(Settings settings, String setting, Map<String, Object> entries,
            UnaryOperator<String> extensionOf) {
        Map<String, List<String>> namesByExtension = new LinkedHashMap<>();
        entries.keySet().forEach(name -> namesByExtension.computeIfAbsent(extensionOf.apply(name), type -> new ArrayList<>()).add(name));
        Set<String> replaced = new HashSet<>();
        namesByExtension.forEach((extension, names) -> {
            List<String> written = names.stream().filter(name -> !settings.isDefaultEntry(setting, name)).toList();
            List<String> placing = written.stream().filter(name -> entries.get(name) != null).toList();
            if (placing.size() > 1) {
                throw settings.invalid(setting, "names " + extension + " twice, as " + placing.get(0) + " and as " + placing.get(1)
                        + "; keep one of the two entries");
            }
            if (!written.isEmpty()) {
                names.stream().filter(name -> !placing.contains(name)).forEach(replaced::add);
            }
        });
        return replaced;
    }
}
