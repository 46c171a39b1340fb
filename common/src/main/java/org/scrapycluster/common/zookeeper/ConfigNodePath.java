package org.scrapycluster.common.zookeeper;

import org.apache.curator.utils.PathUtils;
import org.scrapycluster.common.settings.Settings;

/**
 * The path of the domain config's node, {@code ZOOKEEPER_ASSIGN_PATH + ZOOKEEPER_ID} joined as the original joins them
 * ({@code /scrapy-cluster/crawler/} and {@code all} make {@code /scrapy-cluster/crawler/all}), which crawlers watch,
 * Redis monitors write and the gateway's live view reads.
 */
public final class ConfigNodePath {

    private static final String PARENT = "ZOOKEEPER_ASSIGN_PATH";
    private static final String NAME = "ZOOKEEPER_ID";

    private ConfigNodePath() {
    }

    /**
     * The node's path.
     *
     * @throws org.scrapycluster.common.settings.SettingsException when ZooKeeper would refuse it (no leading {@code /},
     *         an empty or relative segment, a character it does not take), naming the setting the user gave
     */
    public static String of(Settings settings) {
        String parent = settings.getString(PARENT);
        String name = settings.getString(NAME);
        String path = parent + name;
        try {
            PathUtils.validatePath(path);
            return path;
        } catch (IllegalArgumentException e) {
            String blamed = settings.isUserSet(NAME) && !settings.isUserSet(PARENT) ? NAME : PARENT;
            throw settings.invalid(blamed, "makes the config node '" + path + "' (" + PARENT + " '" + parent + "' + " + NAME + " '"
                    + name + "'), which is not a ZooKeeper path: " + e.getMessage());
        }
    }
}
