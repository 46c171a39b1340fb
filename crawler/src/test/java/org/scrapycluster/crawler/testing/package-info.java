/** What several of the crawler's test classes share: the log they read. */
package org.scrapycluster.crawler.testing;
