package org.scrapycluster.common.zookeeper;

import java.io.StringReader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.DoublePredicate;
import java.util.function.UnaryOperator;

import org.scrapycluster.common.domain.DomainKey;
import org.scrapycluster.common.domain.RegisteredDomain;
import org.scrapycluster.common.json.PythonNumbers;
import org.scrapycluster.common.python.PythonFloat;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;

/**
 * The one reader of the ZooKeeper domain config YAML, shared by the crawlers' watcher, the Redis monitor's zookeeper
 * job and the {@code zookeeper push / pull} tool; {@link PyYamlWriter} is its one writer.
 *
 * <p>Every mode reads plain scalars as PyYAML does ({@link PyYamlResolver}): {@code 1e3} is text.
 *
 * <p>{@link #parseLenient} reads what the original crawler accepts, for crawlers, and for the Redis monitor to
 * say what crawlers skip of a node it edits (the edit itself keeps the document as written, {@link DomainConfigDocument}): unknown keys and values of the wrong kind are skipped (and
 * reported as warnings), entries lacking {@code window} or {@code hits} are kept but not applied,
 * a fractional window and fractional hits are kept (Python crawlers apply them as written), and scales are kept as written (they are clamped when applied), but for
 * {@code .nan}, which is skipped; a window or hits written as a number in text ({@code '60'}, {@code 1e3}) is read as
 * that number, and a boolean as 1 or 0, as Python crawlers read them, and a blacklist that is one domain as a list of
 * it; what crawlers apply otherwise than written is reported too: a scale outside 0..1,
 * a key written twice in one mapping (the last is read). Hits below 0 are not: they pause the domain, as a
 * {@code domain-update} request may ask (docs/api.md).
 * {@link #parseApplied} reads it as crawlers apply it: leniently, with every domain spelled as queue keys spell it,
 * and a domain that is no registered domain ({@code www.cnn.com}, {@code cnn.com:8080}), which no queue matches, reported.
 * {@link #parseStrict} is the validator of {@code push}: every deviation is a problem — unknown
 * keys, duplicate keys, non-numeric or fractional counts, a window not above 0 or above a year, a scale outside 0..1,
 * missing {@code window} / {@code hits}, and domains that are not in registered-domain form ({@code www.ebay.com}
 * instead of {@code ebay.com}); hits below 0 are not, as they are a pause, so a config pulled after such a
 * {@code domain-update} can be pushed back as it is.
 */
public final class DomainConfigYaml {

    private static final String BLACKLIST = "blacklist";
    private static final String DOMAINS = "domains";
    private static final String WINDOW = "window";
    private static final String HITS = "hits";
    private static final String SCALE = "scale";
    private static final int MAX_QUOTED_LENGTH = 60;

    private DomainConfigYaml() {
    }

    /** Reads {@code text} as a crawler does; there is no config only when the text is not a YAML mapping. */
    public static ParsedDomainConfig parseLenient(String text) {
        return parse(text, false, false);
    }

    /**
     * Reads {@code text} as crawlers apply it: as {@link #parseLenient}, with every domain of the throttles and the
     * blacklist spelled as queue keys spell it ({@link DomainKey}: in lower case, an internationalised name in its
     * ASCII form), so that an entry written by hand or by a Python Redis monitor as {@code Example.com} or
     * {@code Bücher.example} applies to its queues. Each domain spelled anew is reported; when the config names one
     * domain several ways, one entry is read ({@link #readSpellings}) and the others are reported as left unread.
     */
    public static ParsedDomainConfig parseApplied(String text) {
        ParsedDomainConfig parsed = parse(text, false, true);
        if (parsed.config().isEmpty()) {
            return parsed;
        }
        DomainConfig written = parsed.config().get();
        List<ConfigProblem> problems = new ArrayList<>(parsed.problems());
        Map<String, String> readSpellings = readSpellings(written.domains().keySet());
        SortedMap<String, DomainThrottle> domains = new TreeMap<>();
        written.domains().forEach((domain, throttle) -> queueKeySpelling(DOMAINS + "." + domain, domain, readSpellings::get, problems)
                .ifPresent(key -> domains.put(key, throttle)));
        return new ParsedDomainConfig(Optional.of(new DomainConfig(written.blacklist(), domains)), problems);
    }

    /**
     * For each domain of {@code written} as queue keys spell it, the spelling whose entry is read: the queue keys'
     * own when the config has it, else the last of the others in the config's sorted order (upper case sorts first).
     */
    private static Map<String, String> readSpellings(Set<String> written) {
        Map<String, String> read = new HashMap<>();
        for (String domain : written) {
            try {
                String key = DomainKey.of(domain);
                if (!written.contains(key) || key.equals(domain)) {
                    read.put(key, domain);
                }
            } catch (IllegalArgumentException e) {
                // no queue key: queueKeySpelling reports it
            }
        }
        return read;
    }

    /**
     * {@code domain} as queue keys spell it: as written, with a problem, when it has no such spelling; empty, with a
     * problem, when the config names the domain another way too and {@code readSpelling} gives that other way as the
     * one whose entry is read.
     */
    private static Optional<String> queueKeySpelling(String path, String domain, UnaryOperator<String> readSpelling,
            List<ConfigProblem> problems) {
        String key;
        try {
            key = DomainKey.of(domain);
        } catch (IllegalArgumentException e) {
            problems.add(new ConfigProblem(path, "has no ASCII form (" + e.getMessage() + "); no queue matches it"));
            return Optional.of(domain);
        }
        notARegisteredDomain(key).ifPresent(message -> problems.add(new ConfigProblem(path, message + "; no queue matches it")));
        if (key.equals(domain)) {
            return Optional.of(key);
        }
        String read = readSpelling.apply(key);
        if (!domain.equals(read)) {
            problems.add(new ConfigProblem(path, "is " + key + " as queue keys spell it, which the config names as " + read
                    + " too; that entry is read"));
            return Optional.empty();
        }
        problems.add(new ConfigProblem(path, "is read as " + key + ", as queue keys spell it"));
        return Optional.of(key);
    }

    /** Reads {@code text} as {@code push} validates it; there is no config when anything is wrong. */
    public static ParsedDomainConfig parseStrict(String text) {
        return parse(text, true, false);
    }

    /**
     * The reader of every mode: SnakeYAML's safe constructor, with its limits on nesting and size; duplicate
     * keys are refused in strict mode, and otherwise the last one is read, as PyYAML does.
     */
    static Yaml reader(boolean strict) {
        return reader(new PyYamlConstructor(loaderOptions(strict)));
    }

    /**
     * The lenient reader of a document the Redis monitor edits ({@link DomainConfigDocument}): as {@link #reader}, but
     * a timestamp is read as the original holds it, a Python date or time ({@link PythonTimestamp}), to be written back
     * as the original writes it.
     *
     * @throws IllegalArgumentException (from {@code load}) for a timestamp Python cannot hold, on which the original fails
     */
    static Yaml documentReader() {
        return reader(new PythonTimestamps(loaderOptions(false)));
    }

    /** A reader that resolves plain scalars as PyYAML does ({@link PyYamlResolver}); it writes nothing, so it keeps SnakeYAML's dumping defaults. */
    private static Yaml reader(SafeConstructor constructor) {
        DumperOptions defaults = new DumperOptions();
        return new Yaml(constructor, new Representer(defaults), defaults, constructor.getLoadingConfig(), new PyYamlResolver());
    }

    private static LoaderOptions loaderOptions(boolean strict) {
        LoaderOptions options = new LoaderOptions();
        // Aliases as PyYAML reads them, any number (a config sharing one anchored throttle among its domains has one a
        // domain): an alias is the object it names, not a copy, and every walk of a document goes through each object
        // once (the reader two levels deep, DuplicateKeys and the writer's representer by identity), so a YAML bomb
        // costs its size, which the reader's limit of characters bounds. Nothing hashes a collection, which would walk
        // each alias again: a key that is one is refused, as PyYAML refuses it (PyYamlConstructor). Nesting stays
        // limited to SnakeYAML's 50.
        options.setMaxAliasesForCollections(Integer.MAX_VALUE);
        options.setAllowDuplicateKeys(!strict);
        options.setWarnOnDuplicateKeys(false); // reported as problems, with their path
        return options;
    }

    /**
     * @param spellBlacklist whether the blacklist is read as queue keys spell it ({@link #parseApplied}), where each
     *                       entry's place in the document is known
     */
    private static ParsedDomainConfig parse(String text, boolean strict, boolean spellBlacklist) {
        Yaml yaml = reader(strict);
        Object root;
        List<ConfigProblem> duplicates;
        try {
            root = yaml.load(text == null ? "" : text);
            // strict reading refuses duplicate keys; lenient reading keeps the last, and says so
            duplicates = strict || root == null ? List.of() : DuplicateKeys.in(yaml.compose(new StringReader(text)));
        } catch (RuntimeException e) {
            // a value its explicit tag cannot read (!!int sixty, !!binary @@) fails with the exception of
            // the number or base64 parser SnakeYAML calls, not with a YAMLException, and a tag of a scalar on a
            // collection (!!int [1]) with a ClassCastException
            return unusable("cannot be read as YAML: " + String.valueOf(e.getMessage()).replaceAll("\\s+", " ").strip());
        }
        if (root == null) {
            return new ParsedDomainConfig(Optional.of(DomainConfig.EMPTY), List.of());
        }
        if (!(root instanceof Map<?, ?> document)) {
            return unusable("must be a mapping with the keys blacklist and domains, was " + describe(root));
        }
        DocumentReader reader = new DocumentReader(strict, spellBlacklist);
        reader.problems.addAll(duplicates);
        DomainConfig config = reader.read(document);
        boolean usable = !strict || reader.problems.isEmpty();
        return new ParsedDomainConfig(usable ? Optional.of(config) : Optional.empty(), reader.problems);
    }

    /**
     * Why {@code domain} (spelled as queue keys spell it) names no queue: it is not a registered domain ({@code
     * www.ebay.com}, {@code ebay.com:8080}), with the one it belongs to when there is one; empty when it is one.
     */
    public static Optional<String> notARegisteredDomain(String domain) {
        if (RegisteredDomain.isRegisteredDomain(domain)) {
            return Optional.empty();
        }
        String hint;
        try {
            String registered = RegisteredDomain.of(domain);
            // a public suffix (com, co.uk) is its own registered domain, keyed with a dot before it
            hint = registered.equals("." + domain) ? "; it is a public suffix, whose pages are queued under '" + registered + "'"
                    : "; its registered domain is '" + registered + "'";
        } catch (IllegalArgumentException e) {
            hint = "";
        }
        return Optional.of("'" + domain + "' is not a registered domain as queue keys use it" + hint);
    }

    /** The domains a blacklist written as text names, split at commas and spaces, as crawlers read them. */
    static List<String> blacklistText(String text) {
        return Arrays.stream(text.split("[\\s,]+")).filter(name -> !name.isEmpty()).toList();
    }

    private static ParsedDomainConfig unusable(String message) {
        return new ParsedDomainConfig(Optional.empty(), List.of(new ConfigProblem("document", message)));
    }

    /** A number of seconds or hits as a person writes it: {@code 60}, {@code 0.5}, {@code 1e-05}. */
    static String written(double value) {
        return PythonNumbers.repr(asWritten(value));
    }

    /** Seconds or hits as a number to write: a whole number as a {@code Long} ({@code 60}), a fraction as a {@code Double} ({@code 0.5}). */
    public static Number asWritten(double value) {
        // <=: the largest hits a config holds, Long.MAX_VALUE, is 2^63 as a double, and (long) 2^63 is that long again
        return value == Math.rint(value) && Math.abs(value) <= Long.MAX_VALUE ? (Number) (long) value : (Number) value;
    }

    static String describe(Object value) {
        return switch (value) {
            case null -> "empty";
            case String text -> text.length() > MAX_QUOTED_LENGTH
                    ? "'" + text.substring(0, MAX_QUOTED_LENGTH) + "…'" : "'" + text + "'";
            case Map<?, ?> map -> "a mapping";
            case List<?> list -> "a list";
            case Set<?> set -> "a set";
            case Number number -> PythonNumbers.repr(number);
            default -> String.valueOf(value);
        };
    }

    /** Reads one parsed document, collecting problems. */
    private static final class DocumentReader {

        private final boolean strict;
        private final boolean spellBlacklist;
        private final List<ConfigProblem> problems = new ArrayList<>();

        DocumentReader(boolean strict, boolean spellBlacklist) {
            this.strict = strict;
            this.spellBlacklist = spellBlacklist;
        }

        DomainConfig read(Map<?, ?> document) {
            Optional<List<String>> blacklist = Optional.empty();
            SortedMap<String, DomainThrottle> domains = new TreeMap<>();
            for (Map.Entry<?, ?> entry : document.entrySet()) {
                String key = String.valueOf(entry.getKey());
                switch (key) {
                    case BLACKLIST -> blacklist = readBlacklist(entry.getValue());
                    case DOMAINS -> readDomains(entry.getValue(), domains);
                    default -> problem(key, "unknown key (only blacklist and domains are read)");
                }
            }
            return new DomainConfig(blacklist, domains);
        }

        private Optional<List<String>> readBlacklist(Object value) {
            if (value == null) {
                return Optional.of(List.of());
            }
            if (value instanceof String text && !strict) {
                // a Python crawler tests a queue's domain with `in`, so a text blacklists every domain it names (and
                // every domain whose name is a part of one: bay.com for ebay.com); the names are read as a list
                List<String> named = blacklistText(text);
                problem(BLACKLIST, "is text, not a list; crawlers read it as the list [" + String.join(", ", named) + "]");
                return readBlacklist(named);
            }
            if (!(value instanceof List<?> items)) {
                problem(BLACKLIST, "must be a list of domains, was " + describe(value));
                return Optional.empty();
            }
            List<String> domains = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                String path = BLACKLIST + "[" + i + "]";
                if (items.get(i) instanceof String domain && spellBlacklist) {
                    queueKeySpelling(path, domain, key -> domain, problems).ifPresent(domains::add);
                } else if (items.get(i) instanceof String domain) {
                    checkDomainForm(path, domain);
                    domains.add(domain);
                } else {
                    problem(path, "must be a domain name, was " + describe(items.get(i)));
                }
            }
            return Optional.of(domains);
        }

        private void readDomains(Object value, SortedMap<String, DomainThrottle> domains) {
            if (value == null) {
                return;
            }
            if (!(value instanceof Map<?, ?> entries)) {
                problem(DOMAINS, "must be a mapping of domain to throttle, was " + describe(value));
                return;
            }
            for (Map.Entry<?, ?> entry : entries.entrySet()) {
                String domain = String.valueOf(entry.getKey());
                String path = DOMAINS + "." + domain;
                checkDomainForm(path, domain);
                if (entry.getValue() instanceof Map<?, ?> fields) {
                    domains.put(domain, readThrottle(path, fields));
                } else {
                    problem(path, "must be a mapping with window, hits and scale, was " + describe(entry.getValue()));
                }
            }
        }

        private DomainThrottle readThrottle(String path, Map<?, ?> fields) {
            OptionalDouble window = OptionalDouble.empty();
            OptionalDouble hits = OptionalDouble.empty();
            OptionalDouble scale = OptionalDouble.empty();
            for (Map.Entry<?, ?> field : fields.entrySet()) {
                String name = String.valueOf(field.getKey());
                String fieldPath = path + "." + name;
                switch (name) {
                    // any finite number of seconds: a fraction is kept as crawlers of either kind apply it (window: 0.5 is
                    // half a second) and as a domain-update writes it
                    case WINDOW -> window = number(fieldPath, asPythonNumber(fieldPath, field.getValue(), true), Double::isFinite,
                            "a number of seconds");
                    // below 0 a pause, as a domain-update may ask; a fraction is kept as crawlers of either kind apply it
                    // (DomainThrottle.effectiveHits), which push refuses
                    case HITS -> hits = number(fieldPath, asPythonNumber(fieldPath, field.getValue(), true), fraction -> !strict,
                            "a whole number of hits");
                    case SCALE -> scale = fraction(fieldPath, asPythonNumber(fieldPath, field.getValue(), false));
                    default -> problem(fieldPath, "unknown key (only window, hits and scale are read)");
                }
            }
            if (hits.isPresent() && Double.isNaN(hits.getAsDouble())) {
                // kept, as crawlers of either kind apply it: no count is below it, so the domain is paused
                problem(path + "." + HITS, "is .nan, which no count is below; crawlers pause the domain");
            }
            if (window.isPresent() && !(window.getAsDouble() > 0)) {
                problem(path + "." + WINDOW, "must be above 0, was " + written(window.getAsDouble())
                        + (strict ? "" : "; crawlers ignore the entry"));
            }
            if (window.isPresent() && window.getAsDouble() > DomainThrottle.LONGEST_WINDOW_SECONDS) {
                problem(path + "." + WINDOW, "must be at most " + DomainThrottle.LONGEST_WINDOW_SECONDS + " (a year), was "
                        + written(window.getAsDouble()) + (strict ? "" : "; crawlers count it as a year"));
            }
            // crawlers ignore an entry whose window or hits they cannot read; push names a value it refuses on its own,
            // and speaks of a missing one only where none is written (crawlers apply hits: 2.5 or '7', which push refuses)
            boolean noWindow = strict ? !hasKey(fields, WINDOW) : window.isEmpty();
            boolean noHits = strict ? !hasKey(fields, HITS) : hits.isEmpty();
            if (noWindow || noHits) {
                String missing = noWindow && noHits ? "window and hits" : noWindow ? WINDOW : HITS;
                problem(path, "has no " + missing + "; crawlers ignore an entry without both");
            }
            return new DomainThrottle(window, hits, scale);
        }

        private static boolean hasKey(Map<?, ?> fields, String name) {
            return fields.keySet().stream().anyMatch(key -> name.equals(String.valueOf(key)));
        }

        /**
         * A value as Python crawlers read it as a number, with a warning, where it is none: a boolean as 1 or 0
         * ({@code scale: off} is 0, a pause; Python's {@code bool} is a number), and, with {@code text}, a text that
         * Python's {@code float} reads ({@code '60'}, or {@code 1e3}, which PyYAML reads as text). In strict mode, and
         * for any other value, the value as read. (A {@code scale} in text is not read so: Python crawlers fail on it.)
         */
        private Object asPythonNumber(String path, Object value, boolean text) {
            if (strict) {
                return value;
            }
            if (value instanceof Boolean flag) {
                problem(path, "is " + flag + ", which crawlers read as the number " + (flag ? 1 : 0));
                return flag ? 1L : 0L;
            }
            OptionalDouble number = text && value instanceof String written ? PythonFloat.parse(written) : OptionalDouble.empty();
            if (number.isEmpty()) {
                return value;
            }
            problem(path, "is text, " + describe(value) + ", which crawlers read as the number " + PythonNumbers.repr(number.getAsDouble()));
            return number.getAsDouble();
        }

        /**
         * A window or hits as a number: a whole number, or a fraction where {@code fractionTaken} takes it; otherwise a
         * problem saying what it {@code mustBe}.
         */
        private OptionalDouble number(String path, Object value, DoublePredicate fractionTaken, String mustBe) {
            return switch (value) {
                case Integer i -> OptionalDouble.of(i);
                case Long l -> OptionalDouble.of(l);
                case BigInteger big -> OptionalDouble.of(big.doubleValue());
                case Double d when fractionTaken.test(d) -> OptionalDouble.of(d);
                case null, default -> {
                    problem(path, "must be " + mustBe + ", was " + describe(value) + numberInTextHint(value));
                    yield OptionalDouble.empty();
                }
            };
        }

        /**
         * For a value that is text holding a number ({@code '60'}, or {@code 1e3}, which YAML as the original reads it
         * takes for text): how to write the number so that it is one ({@code 1000}, {@code 1.0e-05}); else nothing.
         */
        private static String numberInTextHint(Object value) {
            OptionalDouble number = value instanceof String text ? PythonFloat.parse(text) : OptionalDouble.empty();
            if (number.isEmpty() || !Double.isFinite(number.getAsDouble())) {
                return "";
            }
            Number written = asWritten(number.getAsDouble());
            return " (text; a number is written " + (written instanceof Long whole ? whole.toString() : PythonNumbers.yaml(number.getAsDouble())) + ")";
        }

        private OptionalDouble fraction(String path, Object value) {
            // .nan compares false with every bound, so clamping would keep it and scaled hits would be 0: a pause
            if (!(value instanceof Integer || value instanceof Long || value instanceof Double)
                    || Double.isNaN(((Number) value).doubleValue())) {
                problem(path, "must be a number from 0 to 1, was " + describe(value) + numberInTextHint(value));
                return OptionalDouble.empty();
            }
            double scale = ((Number) value).doubleValue();
            if (!(scale >= 0.0 && scale <= 1.0)) {
                problem(path, "must be a number from 0 to 1, was " + describe(value)
                        + (strict ? "" : "; crawlers read it as " + PythonNumbers.repr(DomainThrottle.fitScale(scale))));
            }
            return OptionalDouble.of(scale);
        }

        private void checkDomainForm(String path, String domain) {
            if (strict) {
                notARegisteredDomain(domain).ifPresent(message -> problem(path, message));
            }
        }

        private void problem(String path, String message) {
            problems.add(new ConfigProblem(path, message));
        }
    }

    /**
     * SnakeYAML's safe constructor, refusing a mapping key or set member that is a collection, as PyYAML's refuses it
     * ({@code found unhashable key}): hashing it walks the whole of it, every alias in it again, so that a key of twenty
     * nested aliases, ten to a level, would take longer than the age of the universe to read.
     */
    private static class PyYamlConstructor extends SafeConstructor {

        PyYamlConstructor(LoaderOptions options) {
            super(options);
        }

        @Override
        protected void constructMapping2ndStep(MappingNode node, Map<Object, Object> mapping) {
            requireScalarKeys(node);
            super.constructMapping2ndStep(node, mapping);
        }

        @Override
        protected void constructSet2ndStep(MappingNode node, Set<Object> set) {
            requireScalarKeys(node);
            super.constructSet2ndStep(node, set);
        }

        private static void requireScalarKeys(MappingNode node) {
            for (NodeTuple entry : node.getValue()) {
                if (!(entry.getKeyNode() instanceof ScalarNode)) {
                    throw new YAMLException("while constructing a mapping, found unhashable key" + entry.getKeyNode().getStartMark());
                }
            }
        }
    }

    /** {@link PyYamlConstructor}, with timestamps read as {@link PythonTimestamp}s. */
    private static final class PythonTimestamps extends PyYamlConstructor {

        PythonTimestamps(LoaderOptions options) {
            super(options);
            this.yamlConstructors.put(Tag.TIMESTAMP, new AbstractConstruct() {
                @Override
                public Object construct(Node node) {
                    return PythonTimestamp.of(((ScalarNode) node).getValue());
                }
            });
        }
    }
}
