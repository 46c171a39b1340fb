/**
 * What happens to a page's result item: the pipeline contract and its loading, the Kafka result message
 * of docs/compatibility.md §1.3, the Kafka and logging pipelines.
 */
package org.scrapycluster.crawler.pipeline;
