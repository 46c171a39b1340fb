package org.scrapycluster.crawler.request;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A map in insertion order that nobody can change, which {@link CrawlRequest} keeps as it is where it
 * would otherwise copy what it is given: a page's links are children of one request, and each child's
 * meta used to be copied three times on its way to Redis.
 */
final class FrozenMap<K, V> extends AbstractMap<K, V> {

    private static final FrozenMap<?, ?> EMPTY = new FrozenMap<>(new LinkedHashMap<>());
    /**
     * The classes of the JDK's unmodifiable maps ({@code Map.of}, {@code Map.copyOf}), which need no copy either: a
     * {@code FollowRequest}'s meta is one (unless a value is null), so every link a spider follows came with a map copied
     * for nothing.
     */
    private static final Set<Class<?>> UNMODIFIABLE = Set.of(Map.of().getClass(), Map.of("", "").getClass());

    private final Map<K, V> entries;
    private final Set<Entry<K, V>> view;

    private FrozenMap(LinkedHashMap<K, V> entries) {
        this.entries = entries;
        this.view = Collections.unmodifiableMap(entries).entrySet();
    }

    /**
     * {@code map} itself when it is frozen already, an {@link InheritedMeta} or one of the JDK's unmodifiable maps
     * (whose order, unspecified, is the one a copy would have kept), otherwise a frozen copy of it.
     */
    @SuppressWarnings("unchecked")
    static <K, V> Map<K, V> copyOf(Map<? extends K, ? extends V> map) {
        if (map instanceof FrozenMap<?, ?> || map instanceof InheritedMeta || UNMODIFIABLE.contains(map.getClass())) {
            return (Map<K, V>) map;
        }
        return map.isEmpty() ? (Map<K, V>) EMPTY : new FrozenMap<>(new LinkedHashMap<>(map));
    }

    /** {@code fresh} frozen without a copy: the caller built it for this and lets go of it. */
    static <K, V> Map<K, V> owning(LinkedHashMap<K, V> fresh) {
        return new FrozenMap<>(fresh);
    }

    @Override
    public V get(Object key) {
        return entries.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return entries.containsKey(key);
    }

    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    @Override
    public void forEach(BiConsumer<? super K, ? super V> action) {
        entries.forEach(action);
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return view;
    }
}
