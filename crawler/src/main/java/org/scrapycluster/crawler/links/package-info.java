/**
 * Finding the links of a page as Scrapy Cluster's link spider does: whether the response is HTML, XML or binary
 * (decided as Scrapy picks its response class), then the a and area hrefs resolved against the page, de-duplicated,
 * filtered by scheme, allowed domains, RE2 allow and deny regexes and denied extensions, and canonicalised.
 */
package org.scrapycluster.crawler.links;
