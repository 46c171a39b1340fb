/**
 * The domain config in ZooKeeper: the zookeeper job that edits it (docs/compatibility.md §3.9) and the
 * {@code zookeeper push / pull} commands that replace and show it (§5.5).
 */
package org.scrapycluster.redismonitor.zookeeper;
