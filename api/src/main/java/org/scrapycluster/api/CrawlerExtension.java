package org.scrapycluster.api;

/**
 * An extension a crawler node runs: its spider, link filters, downloader middlewares and item pipelines. The node
 * closes each instance it made when it stops, once its workers and fetcher have stopped: the item pipelines first, then
 * the spider, link filters and middlewares. The instance a start's check makes ({@link Extension}) is closed when the
 * check ends. A close that throws is logged, and the others are closed all the
 * same; one that has not returned when the stop's time for it is up is logged and left to finish alone
 * (docs/extending.md, "When an extension fails").
 */
public interface CrawlerExtension extends Extension, AutoCloseable {

    /** Releases what this instance holds (a client, a file, a thread); called once. */
    @Override
    default void close() {
    }
}
