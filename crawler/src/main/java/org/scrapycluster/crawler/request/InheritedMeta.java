package org.scrapycluster.crawler.request;

import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The meta of a request a page yielded, read through to the request of the page instead of copied
 * ({@link MetaPassthrough}): most of a page's links are known duplicates, whose meta is read for a few fields
 * and never written out. Its entries, in order, are the child's own fields, then the crawl fields of the
 * parent it lacks, then {@code retry_times} 0 unless it set one; they are put together each time anyone iterates
 * over them (once, when the request is written to its queue) and not kept: a page of hundreds of thousands of links
 * holds its children until they are filed, and their entries kept would be ten times their size. Immutable and
 * thread-safe.
 */
final class InheritedMeta extends AbstractMap<String, Object> {

    private static final String RETRY_TIMES = "retry_times";
    private static final Set<String> INHERITED = Set.copyOf(MetaPassthrough.CRAWL_FIELDS);

    private final Map<String, Object> own;
    private final Map<String, Object> parent;

    /** @param own the child's own meta and {@code parent} its parent's, both frozen */
    InheritedMeta(Map<String, Object> own, Map<String, Object> parent) {
        this.own = own;
        this.parent = parent;
    }

    @Override
    public Object get(Object key) {
        Object value = own.get(key);
        if (value != null) {
            return value;
        }
        if (RETRY_TIMES.equals(key)) {
            return 0;
        }
        return !own.containsKey(key) && INHERITED.contains(key) ? parent.get(key) : null;
    }

    @Override
    public boolean containsKey(Object key) {
        return own.containsKey(key) || RETRY_TIMES.equals(key) || INHERITED.contains(key) && parent.containsKey(key);
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return entries().entrySet();
    }

    @Override
    public int size() {
        int size = own.size();
        for (String field : MetaPassthrough.CRAWL_FIELDS) {
            if (!own.containsKey(field) && parent.containsKey(field)) {
                size++;
            }
        }
        return own.containsKey(RETRY_TIMES) ? size : size + 1;
    }

    private Map<String, Object> entries() {
        LinkedHashMap<String, Object> meta = new LinkedHashMap<>(own);
        for (String field : MetaPassthrough.CRAWL_FIELDS) {
            if (!meta.containsKey(field) && parent.containsKey(field)) {
                meta.put(field, parent.get(field));
            }
        }
        meta.putIfAbsent(RETRY_TIMES, 0);
        return FrozenMap.owning(meta);
    }
}
