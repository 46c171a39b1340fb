/**
 * Spiders: what a crawler does with a page — the page a spider sees, loading spiders by name, and the
 * link and wandering spiders of the original.
 */
package org.scrapycluster.crawler.spider;
