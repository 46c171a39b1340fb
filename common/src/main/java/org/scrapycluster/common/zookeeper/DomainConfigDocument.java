package org.scrapycluster.common.zookeeper;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.scrapycluster.common.domain.DomainKey;

/**
 * The domain config node as the Redis monitor's zookeeper job edits it: the YAML document as SnakeYAML's safe
 * constructor reads it, every key and value as written (a fractional {@code window: 0.5}, a quoted
 * {@code hits: "30"}, a key crawlers do not read such as {@code owner:}). Each of the four edits replaces one part only,
 * {@code domains[<domain>]} or the {@code blacklist} list, and makes both keys present, as the original does; the rest
 * is written back as it was read (docs/redis-monitor.md "zookeeper"). Immutable: an edit returns a new document.
 *
 * <p>A node that crawlers could not read at all is refused rather than edited, as the edit would lose it: text that is
 * not YAML, a document that is not a mapping, a {@code domains} that is not a mapping or a {@code blacklist} that is
 * neither a list nor one domain; so is a timestamp Python cannot hold ({@code 2024-02-30}), on which the original's edit fails. An empty
 * one ({@code domains:}) counts as none. Timestamps are kept as the original keeps them, as Python dates and times
 * ({@link PythonTimestamp}).
 */
public final class DomainConfigDocument {

    private static final String BLACKLIST = "blacklist";
    private static final String DOMAINS = "domains";

    private final Map<Object, Object> root;
    private final List<ConfigProblem> problems;

    private DomainConfigDocument(Map<Object, Object> root, List<ConfigProblem> problems) {
        this.root = Collections.unmodifiableMap(root);
        this.problems = List.copyOf(problems);
    }

    /**
     * Reads {@code text} (empty for an empty node).
     *
     * @throws IllegalArgumentException when it cannot be edited without losing it, saying why
     */
    public static DomainConfigDocument read(String text) {
        ParsedDomainConfig parsed = DomainConfigYaml.parseLenient(text);
        if (!parsed.isUsable()) {
            throw new IllegalArgumentException(parsed.problems().toString());
        }
        Map<Object, Object> root = new LinkedHashMap<>();
        if (DomainConfigYaml.documentReader().load(text) instanceof Map<?, ?> document) {
            root.putAll(document);
        }
        requireKind(root, DOMAINS, Map.class, "a mapping of domain to throttle");
        if (!(root.get(BLACKLIST) instanceof String)) { // one domain, as crawlers read it
            requireKind(root, BLACKLIST, List.class, "a list of domains");
        }
        return new DomainConfigDocument(root, parsed.problems());
    }

    private static void requireKind(Map<Object, Object> root, String key, Class<?> kind, String described) {
        Object value = root.get(key);
        if (value != null && !kind.isInstance(value)) {
            throw new IllegalArgumentException(key + " must be " + described + ", was " + DomainConfigYaml.describe(value)
                    + "; an edit would lose it");
        }
    }

    /** What crawlers skip or apply otherwise than written in the text read ({@link DomainConfigYaml#parseLenient}), for a warning. */
    public List<ConfigProblem> problems() {
        return problems;
    }

    /** The YAML text, as the original Redis monitor writes the same document ({@link PyYamlWriter#write}). */
    public String text() {
        return PyYamlWriter.write(root);
    }

    /**
     * {@code domain-update}: sets the domain's entry to {@code {hits, scale, window}}, in place of every entry of the
     * same domain spelled otherwise ({@code Example.com}, which crawlers read as {@code example.com}), so that no
     * stale one is left beside it.
     *
     * @param domain the domain as queue keys spell it ({@link DomainKey})
     * @param window seconds, written as given: an integer ({@code 60}) or a float ({@code 0.5}, {@code 60.0}), which
     *               crawlers apply as written
     * @param scale  written as given too ({@code 1}, {@code 0.9})
     */
    public DomainConfigDocument domainUpdate(String domain, Number window, long hits, Number scale) {
        Map<Object, Object> domains = domainsWithout(domain);
        Map<Object, Object> entry = new LinkedHashMap<>();
        entry.put("window", window);
        entry.put("hits", hits);
        entry.put("scale", scale);
        domains.put(domain, entry);
        return with(DOMAINS, domains);
    }

    /**
     * {@code domain-remove}: drops every entry of the domain, however spelled: crawlers apply an entry written
     * {@code Example.com} to {@code example.com} (docs/throttling.md), so one left behind would still be in force.
     *
     * @param domain the domain as queue keys spell it ({@link DomainKey})
     */
    public DomainConfigDocument domainRemove(String domain) {
        return with(DOMAINS, domainsWithout(domain));
    }

    /**
     * {@code blacklist-update}: adds the domain to the blacklist, once, in place of every entry of the same domain
     * spelled otherwise (the order of first listing is kept). Entries that are not text are kept as they are, never
     * hashed: a list built of aliases would be walked in full, every alias again.
     *
     * @param domain the domain as queue keys spell it ({@link DomainKey})
     */
    public DomainConfigDocument blacklistUpdate(String domain) {
        List<Object> edited = new ArrayList<>();
        Set<String> listed = new HashSet<>();
        for (Object entry : blacklist()) {
            Object kept = sameDomain(entry, domain) ? domain : entry;
            if (!(kept instanceof String text) || listed.add(text)) {
                edited.add(kept);
            }
        }
        if (listed.add(domain)) {
            edited.add(domain);
        }
        return with(BLACKLIST, edited);
    }

    /**
     * {@code blacklist-remove}: takes the domain off the blacklist, however it is spelled there: crawlers apply an
     * entry written {@code Example.com} to {@code example.com} (docs/throttling.md).
     *
     * @param domain the domain as queue keys spell it ({@link DomainKey})
     */
    public DomainConfigDocument blacklistRemove(String domain) {
        List<Object> edited = new ArrayList<>(blacklist());
        edited.removeIf(entry -> sameDomain(entry, domain));
        return with(BLACKLIST, edited);
    }

    /**
     * The blacklist as crawlers read it: a list, or the domains a text names ({@code blacklist: ebay.com, cnn.com}),
     * which a blacklist edit writes back as a list (the original's {@code blacklist-update} fails on such a node). Other edits
     * leave it as written, as the original does.
     */
    private List<?> blacklist() {
        return root.get(BLACKLIST) instanceof String text ? DomainConfigYaml.blacklistText(text) : part(BLACKLIST, List.of());
    }

    private Map<Object, Object> domainsWithout(String domain) {
        Map<Object, Object> domains = new LinkedHashMap<>(part(DOMAINS, Map.of()));
        domains.keySet().removeIf(entry -> sameDomain(entry, domain));
        return domains;
    }

    /**
     * The document with {@code key} set to {@code value}, and both keys present, as the original makes them: it adds
     * a missing {@code domains}, then a missing {@code blacklist}, before its edit, and that order is kept where PyYAML
     * cannot sort the keys (a document with a key that is no text).
     */
    private DomainConfigDocument with(String key, Object value) {
        Map<Object, Object> edited = new LinkedHashMap<>(root);
        if (edited.get(DOMAINS) == null) {
            edited.put(DOMAINS, Map.of());
        }
        if (edited.get(BLACKLIST) == null) {
            edited.put(BLACKLIST, List.of());
        }
        edited.put(key, value);
        return new DomainConfigDocument(edited, problems);
    }

    /** The part {@code key}, of the kind {@link #read} checked, or {@code none} when it is absent or empty. */
    @SuppressWarnings("unchecked")
    private <T> T part(String key, T none) {
        Object value = root.get(key);
        return value == null ? none : (T) value;
    }

    /**
     * Whether crawlers apply {@code entry} of the config to {@code domain} (spelled as queue keys spell it): when
     * {@link DomainKey} folds it to that spelling, as they read it. An entry that is no text (a number), or has no
     * ASCII form, matches only itself.
     */
    private static boolean sameDomain(Object entry, String domain) {
        if (domain.equals(entry)) {
            return true;
        }
        if (!(entry instanceof String text)) {
            return false;
        }
        try {
            return DomainKey.of(text).equals(domain);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
