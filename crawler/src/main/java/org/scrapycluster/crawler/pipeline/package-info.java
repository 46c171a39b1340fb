/**
 * What happens to a page's result item: loading the pipelines of {@code ITEM_PIPELINES}, the Kafka result message
 * of behaviour spec §1.3, the Kafka and logging pipelines.
 */
package org.scrapycluster.crawler.pipeline;
