/**
 * The public extension API of Scrapy Cluster for Java: everything a spider, item pipeline, link filter or downloader middleware
 * of your own compiles against, and nothing else (no Kafka, Netty or Redis client on its path).
 *
 * <p>Every extension is an {@link org.scrapycluster.api.Extension}: a public class with a no-argument
 * constructor, listed in {@code META-INF/services/<its interface>} of its jar, given its settings once
 * through {@link org.scrapycluster.api.Extension#configure} before it is used, and known by its
 * {@link org.scrapycluster.api.Extension#name}. Services load extensions from their own class path and from
 * the jars of the plugin folders. The Javadoc of these types is the contract; docs/extending.md walks
 * through an example.
 */
package org.scrapycluster.api;
