/** robots.txt: fetched once per host through the crawler's fetcher, cached, and asked whether a URL may be fetched. */
package org.scrapycluster.crawler.robots;
