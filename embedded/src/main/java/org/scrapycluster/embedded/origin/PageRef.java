package org.scrapycluster.embedded.origin;

/** One page of a {@link SyntheticSite}: page {@code page} of domain {@code domain}, both counted from 0. */
public record PageRef(int domain, int page) {

    public PageRef {
        if (domain < 0 || page < 0) {
            throw new IllegalArgumentException("domain and page are counted from 0: " + domain + "/" + page);
        }
    }

    /** The page's path on its domain, {@code /p/<page>}. */
    public String path() {
        return SyntheticSite.PAGE_PREFIX + page;
    }
}
