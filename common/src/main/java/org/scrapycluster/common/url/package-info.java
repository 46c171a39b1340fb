/**
 * URLs as Scrapy sees them: splitting, resolving, escaping and canonicalising with Python's and w3lib's
 * rules, and the request fingerprints that de-duplicate a crawl, so that Java and Python components agree
 * on which requests are the same.
 */
package org.scrapycluster.common.url;
