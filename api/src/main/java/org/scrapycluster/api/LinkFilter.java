package org.scrapycluster.api;

/**
 * Decides which of a page's links a crawl may follow. The filters named in {@code LINK_FILTERS} run in
 * ascending order; a link passes when every one allows it. What they refuse is neither followed nor listed
 * in the result's {@code links}. The built-in filters ({@code allow-regex}, {@code deny-regex},
 * {@code allowed-domains}, {@code deny-extensions}) apply the crawl's own fields of those names while the
 * links are read from the page; a filter of your own then sees each link left, in its canonical form.
 */
public interface LinkFilter extends CrawlerExtension {

    /** Whether {@code link}, found on {@code page}, may be followed; {@code page.links()} is not to be asked here. */
    boolean allows(PageLink link, Page page);
}
