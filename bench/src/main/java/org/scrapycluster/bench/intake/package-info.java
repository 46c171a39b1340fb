/** The Kafka monitor's benchmark: valid crawl requests per second from Kafka into Redis queues ({@code bench kafka-monitor}). */
package org.scrapycluster.bench.intake;
