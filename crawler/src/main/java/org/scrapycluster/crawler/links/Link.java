package org.scrapycluster.crawler.links;

import java.util.Objects;

/**
 * A link found on a page: its URL (absolute, canonical unless the extractor was told otherwise) and its
 * anchor text — the text of everything inside the element, as it stands in the page (possibly empty).
 */
public record Link(String url, String text) {

    public Link {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(text, "text");
    }
}
