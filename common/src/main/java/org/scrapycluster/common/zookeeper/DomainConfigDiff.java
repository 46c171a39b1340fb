package org.scrapycluster.common.zookeeper;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;

import org.scrapycluster.common.json.PythonNumbers;

/**
 * The changes between two domain configs, one line each, for {@code zookeeper push} to show what
 * it changed: {@code blacklist: added ebay.com}, {@code domains.cnn.com: hits 10 → 15}.
 */
public final class DomainConfigDiff {

    private DomainConfigDiff() {
    }

    /** Every change from {@code before} to {@code after}; empty when they are equal. */
    public static List<String> between(DomainConfig before, DomainConfig after) {
        List<String> changes = new ArrayList<>();
        blacklistChanges(before, after, changes);
        Set<String> domains = new TreeSet<>(before.domains().keySet());
        domains.addAll(after.domains().keySet());
        for (String domain : domains) {
            domainChange(domain, before.domains(), after.domains(), changes);
        }
        return List.copyOf(changes);
    }

    private static void blacklistChanges(DomainConfig before, DomainConfig after, List<String> changes) {
        if (before.blacklist().isEmpty() && after.blacklist().isPresent()) {
            changes.add("blacklist: key added (crawlers replace their blacklist with it)");
        }
        if (before.blacklist().isPresent() && after.blacklist().isEmpty()) {
            changes.add("blacklist: key removed (crawlers keep the blacklist they have)");
        }
        Set<String> old = new LinkedHashSet<>(before.blacklist().orElse(List.of()));
        Set<String> now = new LinkedHashSet<>(after.blacklist().orElse(List.of()));
        now.stream().filter(domain -> !old.contains(domain)).forEach(domain -> changes.add("blacklist: added " + domain));
        old.stream().filter(domain -> !now.contains(domain)).forEach(domain -> changes.add("blacklist: removed " + domain));
    }

    private static void domainChange(String domain, Map<String, DomainThrottle> before,
            Map<String, DomainThrottle> after, List<String> changes) {
        DomainThrottle old = before.get(domain);
        DomainThrottle now = after.get(domain);
        String path = "domains." + domain + ": ";
        if (old == null) {
            changes.add(path + "added (" + String.join(", ", fields(now)) + ")");
        } else if (now == null) {
            changes.add(path + "removed");
        } else if (!old.equals(now)) {
            List<String> oldFields = fields(old);
            List<String> newFields = fields(now);
            List<String> changed = new ArrayList<>();
            for (int i = 0; i < newFields.size(); i++) {
                if (!oldFields.get(i).equals(newFields.get(i))) {
                    changed.add(oldFields.get(i) + " → " + newFields.get(i).substring(newFields.get(i).indexOf(' ') + 1));
                }
            }
            changes.add(path + String.join(", ", changed));
        }
    }

    private static List<String> fields(DomainThrottle throttle) {
        return List.of("window " + written(throttle.window()), "hits " + written(throttle.hits()), "scale " + fraction(throttle.scale()));
    }

    private static String written(OptionalDouble value) {
        return value.isPresent() ? DomainConfigYaml.written(value.getAsDouble()) : "(none)";
    }

    private static String fraction(OptionalDouble value) {
        return value.isPresent() ? PythonNumbers.yaml(value.getAsDouble()) : "(none)";
    }
}
