package org.scrapycluster.common.url;

import java.util.ArrayList;
import java.util.List;

/**
 * Resolves a reference (an {@code href}, a {@code Location}) against a base URL exactly as Python's
 * {@code urllib.parse.urljoin}, which Scrapy's link extractor and redirect handling use: RFC 3986 merging
 * and dot-segment removal, with Python's leniencies — a reference with the base's scheme but no host
 * ({@code http:page}) is relative, empty segments inside a relative path collapse, {@code ..} above the
 * root is dropped, and a reference with another scheme comes back unchanged. Nothing is escaped.
 */
public final class UrlResolver {

    private UrlResolver() {
    }

    /**
     * {@code ref} resolved against {@code base}.
     *
     * @throws InvalidUrlException when either cannot be split (an unbalanced IPv6 bracket)
     */
    public static String resolve(String base, String ref) {
        return against(base).resolve(ref);
    }

    /** {@code base} split once, for resolving many references against it (the links of a page). */
    public static Base against(String base) {
        return new Base(UrlParts.clean(base));
    }

    /** A base URL, split once; immutable. */
    public static final class Base {

        private final String clean;
        /** Null when the base is empty or cannot be split: it is then only needed, and refused, for a non-empty reference. */
        private final UrlParts parts;
        /** {@code scheme://netloc} of an http or https base with a host, which a plain absolute path is appended to; else null. */
        private final String origin;

        private Base(String clean) {
            this.clean = clean;
            this.parts = split(clean);
            boolean web = parts != null && (parts.scheme().equals("http") || parts.scheme().equals("https"));
            this.origin = web && !parts.netloc().isEmpty() ? parts.scheme() + "://" + parts.netloc() : null;
        }

        private static UrlParts split(String clean) {
            if (clean.isEmpty()) {
                return null;
            }
            try {
                return UrlParts.parse(clean);
            } catch (InvalidUrlException unsplittable) {
                return null;
            }
        }

        /**
         * {@code ref} resolved against this base.
         *
         * @throws InvalidUrlException when {@code ref}, or this base while {@code ref} is not empty, cannot be split
         */
        public String resolve(String ref) {
            String cleanRef = UrlParts.clean(ref);
            if (clean.isEmpty()) {
                return cleanRef;
            }
            if (cleanRef.isEmpty()) {
                return clean;
            }
            if (parts != null && UrlCanonicalizer.isPlainCanonical(cleanRef)) {
                return cleanRef;
            }
            if (origin != null && isPlainAbsolutePath(cleanRef)) {
                return origin + cleanRef;
            }
            return resolveParts(cleanRef);
        }

        /**
         * {@code cleanRef}, neither empty nor resolved by a shortcut of {@link #resolve}, resolved part by part.
         *
         * @throws InvalidUrlException when {@code cleanRef} or this base cannot be split
         */
        String resolveParts(String cleanRef) {
            // a base that could not be split is split again here, to throw what splitting it throws
            UrlParts b = parts != null ? parts : UrlParts.parse(clean);
            UrlParts r = UrlParts.parse(cleanRef, b.scheme());
            String scheme = r.scheme();
            if (!scheme.equals(b.scheme()) || !UrlParts.USES_RELATIVE.contains(scheme)) {
                return cleanRef;
            }
            String netloc = r.netloc();
            if (UrlParts.USES_NETLOC.contains(scheme)) {
                if (!netloc.isEmpty()) {
                    return r.toString();
                }
                netloc = b.netloc();
            }
            if (r.path().isEmpty() && r.params().isEmpty()) {
                String query = r.query().isEmpty() ? b.query() : r.query();
                return new UrlParts(scheme, netloc, b.path(), b.params(), query, r.fragment()).toString();
            }
            String path = mergePath(b.path(), r.path());
            return new UrlParts(scheme, netloc, path, r.params(), r.query(), r.fragment()).toString();
        }
    }

    /**
     * Whether {@code ref} is a path from the root ({@code /a/b.html}, not {@code //host}) of characters that need no
     * escape, without escapes, parameters, query, fragment, or {@code .} and {@code ..} segments: a reference
     * that resolves to the base's {@code scheme://netloc} followed by itself, as most links within a site do.
     */
    static boolean isPlainAbsolutePath(String ref) {
        int length = ref.length();
        if (length == 0 || ref.charAt(0) != '/' || length > 1 && ref.charAt(1) == '/') {
            return false;
        }
        int segment = 1;
        for (int at = 1; at <= length; at++) {
            char c = at < length ? ref.charAt(at) : '/';
            if (c == '/') {
                if (isDotSegment(ref, segment, at)) {
                    return false;
                }
                segment = at + 1;
            } else if (!UrlCanonicalizer.isPlainPathChar(c)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code ref[from, to)} is {@code .} or {@code ..}. */
    private static boolean isDotSegment(String ref, int from, int to) {
        int length = to - from;
        return (length == 1 || length == 2) && ref.charAt(from) == '.' && (length == 1 || ref.charAt(from + 1) == '.');
    }

    /** Python's merge of a base path and a reference path, with {@code .} and {@code ..} removed. */
    private static String mergePath(String basePath, String refPath) {
        List<String> segments = new ArrayList<>();
        if (refPath.startsWith("/")) {
            segments.addAll(List.of(refPath.split("/", -1)));
        } else {
            List<String> baseParts = new ArrayList<>(List.of(basePath.split("/", -1)));
            if (!baseParts.getLast().isEmpty()) {
                baseParts.removeLast();
            }
            segments.addAll(baseParts);
            segments.addAll(List.of(refPath.split("/", -1)));
            collapseInnerEmptySegments(segments);
        }
        List<String> resolved = new ArrayList<>(segments.size());
        for (String segment : segments) {
            if (segment.equals("..")) {
                if (!resolved.isEmpty()) {
                    resolved.removeLast();
                }
            } else if (!segment.equals(".")) {
                resolved.add(segment);
            }
        }
        String last = segments.getLast();
        if (last.equals(".") || last.equals("..")) {
            resolved.add("");
        }
        String joined = String.join("/", resolved);
        return joined.isEmpty() ? "/" : joined;
    }

    /** Removes empty segments other than the first and the last, as Python's {@code segments[1:-1] = filter(None, …)}. */
    private static void collapseInnerEmptySegments(List<String> segments) {
        if (segments.size() <= 2) {
            return;
        }
        String first = segments.getFirst();
        String last = segments.getLast();
        List<String> inner = new ArrayList<>(segments.subList(1, segments.size() - 1));
        inner.removeIf(String::isEmpty);
        segments.clear();
        segments.add(first);
        segments.addAll(inner);
        segments.add(last);
    }
}
