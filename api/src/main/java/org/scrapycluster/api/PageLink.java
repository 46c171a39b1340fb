package org.scrapycluster.api;

import java.util.Objects;

/**
 * A link found on a page.
 *
 * @param url  the absolute URL it points to
 * @param text the link's text, whitespace trimmed
 */
public record PageLink(String url, String text) {

    public PageLink {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(text, "text");
    }
}
