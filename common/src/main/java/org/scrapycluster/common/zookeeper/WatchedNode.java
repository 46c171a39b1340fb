package org.scrapycluster.common.zookeeper;

import java.util.Objects;

import org.apache.curator.utils.PathUtils;

/**
 * The node a {@link ZooKeeperWatcher} watches and how to read it.
 *
 * @param path the node, e.g. {@code /scrapy-cluster/crawler/all}
 * @param pointer whether the node holds the path of the real config node instead of the config
 * @param createIfMissing whether to create the node (empty, with its parents) when it is missing
 */
public record WatchedNode(String path, boolean pointer, boolean createIfMissing) {

    public WatchedNode {
        PathUtils.validatePath(Objects.requireNonNull(path, "path"));
    }

    /** The config node itself, created when missing: how crawlers watch {@code ZOOKEEPER_ASSIGN_PATH + ZOOKEEPER_ID}. */
    public static WatchedNode config(String path) {
        return new WatchedNode(path, false, true);
    }

    /** A node whose text is the path of the config node to follow. */
    public static WatchedNode pointer(String path) {
        return new WatchedNode(path, true, false);
    }
}
