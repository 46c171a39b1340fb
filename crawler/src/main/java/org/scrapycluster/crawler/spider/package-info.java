/**
 * Spiders: what a crawler does with a page — the one-method contract, loading spiders by name, and the
 * link and wandering spiders of the original.
 */
package org.scrapycluster.crawler.spider;
