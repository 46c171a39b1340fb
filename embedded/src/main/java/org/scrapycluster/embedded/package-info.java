/**
 * The infrastructure a cluster needs, started in this JVM: a KRaft Kafka broker, a ZooKeeper
 * server and a {@code redis-server} child process. {@code standalone} runs them when no external
 * address is configured; every module's integration tests share one {@link EmbeddedStack}.
 */
package org.scrapycluster.embedded;
