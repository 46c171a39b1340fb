/**
 * What happens to a page's result item: loading the pipelines of {@code ITEM_PIPELINES}, the Kafka result message
 * of docs/compatibility.md §1.3, the Kafka and logging pipelines.
 */
package org.scrapycluster.crawler.pipeline;
