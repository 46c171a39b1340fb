package com.example.titles;

import org.scrapycluster.api.ExtensionSettings;
import org.scrapycluster.api.LinkFilter;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;

/**
 * Refuses links with a query string ({@code ?…}), which often list the same pages sorted another way.
 * {@code NO_QUERY_ALLOW_PAGING=true} (an environment variable) still lets {@code ?page=N} links through.
 */
public final class NoQueryLinks implements LinkFilter {

    private boolean allowPaging;

    @Override
    public String name() {
        return "no-query";
    }

    @Override
    public void configure(ExtensionSettings settings) {
        allowPaging = settings.flag("NO_QUERY_ALLOW_PAGING", false);
    }

    @Override
    public boolean allows(PageLink link, Page page) {
        int query = link.url().indexOf('?');
        if (query < 0) {
            return true;
        }
        return allowPaging && link.url().substring(query + 1).matches("page=\\d+");
    }
}
