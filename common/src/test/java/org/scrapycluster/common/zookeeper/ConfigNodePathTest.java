package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;

class ConfigNodePathTest {

    @Test
    void theParentAndTheNameAreJoinedAsTheOriginalJoinsThem() {
        assertEquals("/scrapy-cluster/crawler/all", ConfigNodePath.of(settings(Map.of())));
        assertEquals("/sc/crawler/eu", ConfigNodePath.of(settings(Map.of("ZOOKEEPER_ASSIGN_PATH", "/sc/crawler/", "ZOOKEEPER_ID", "eu"))));
    }

    @Test
    void aPathZooKeeperWouldRefuseIsASettingsErrorNamingTheSettingGiven() {
        assertEquals("Setting ZOOKEEPER_ASSIGN_PATH (from the command line) makes the config node 'scrapy-cluster/all' "
                + "(ZOOKEEPER_ASSIGN_PATH 'scrapy-cluster/' + ZOOKEEPER_ID 'all'), which is not a ZooKeeper path: Path must start with / character",
                assertThrows(SettingsException.class, () -> ConfigNodePath.of(settings(Map.of("ZOOKEEPER_ASSIGN_PATH", "scrapy-cluster/"))))
                        .getMessage());
        assertEquals("Setting ZOOKEEPER_ID (from the command line) makes the config node '/scrapy-cluster/crawler/all/' "
                + "(ZOOKEEPER_ASSIGN_PATH '/scrapy-cluster/crawler/' + ZOOKEEPER_ID 'all/'), which is not a ZooKeeper path: "
                + "Path must not end with / character",
                assertThrows(SettingsException.class, () -> ConfigNodePath.of(settings(Map.of("ZOOKEEPER_ID", "all/")))).getMessage());
        assertThrows(SettingsException.class, () -> ConfigNodePath.of(settings(Map.of("ZOOKEEPER_ID", ""))), "the parent's trailing /");
        assertThrows(SettingsException.class, () -> ConfigNodePath.of(settings(Map.of("ZOOKEEPER_ID", ".."))));
    }

    private static Settings settings(Map<String, String> sets) {
        return Settings.load("crawler", new SettingsSources(null, Map.of(), sets));
    }
}
