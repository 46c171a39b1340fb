package org.scrapycluster.api;

/**
 * Decides which of a page's links a crawl may follow, after the crawl's own filters
 * ({@code allowed_domains}, {@code allow_regex}, {@code deny_regex}, {@code deny_extensions}). The
 * filters named in {@code LINK_FILTERS} run in ascending order; a link passes when every one allows it.
 * What they refuse is neither followed nor listed in the result's {@code links}.
 */
public interface LinkFilter extends Extension {

    /** Whether {@code link}, found on {@code page}, may be followed. */
    boolean allows(PageLink link, Page page);
}
