package org.scrapycluster.embedded.origin;

/** Serves the pages of a {@link SyntheticSite} at {@code /p/<n>} on each domain's address. */
final class SitePages implements Route {

    private final SyntheticSite site;

    SitePages(SyntheticSite site) {
        this.site = site;
    }

    @Override
    public void serve(Exchange exchange) {
        String number = exchange.path().substring(SyntheticSite.PAGE_PREFIX.length());
        PageRef page = parse(exchange.domainIndex(), number);
        if (page == null || !site.exists(page)) {
            exchange.sendText(404, "text/plain", "no such page");
            return;
        }
        exchange.send(200, site.render(page, exchange::baseUrl), "Content-Type", "text/html; charset=utf-8");
    }

    private static PageRef parse(int domain, String number) {
        if (domain < 0 || number.isEmpty() || number.length() > 9 || !number.chars().allMatch(Character::isDigit)) {
            return null;
        }
        return new PageRef(domain, Integer.parseInt(number));
    }
}
