/**
 * A crawler node as a service: its settings, the life of each leased request from hand-out to
 * acknowledgement, the wiring of scheduler, fetcher, spider and pipelines, and the {@code crawler} command.
 */
package org.scrapycluster.crawler.node;
