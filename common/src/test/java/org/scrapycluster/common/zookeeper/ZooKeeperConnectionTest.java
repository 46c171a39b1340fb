package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;

/** A ZOOKEEPER_HOSTS ZooKeeper's client could not use is refused before a client is made, naming the setting. */
class ZooKeeperConnectionTest {

    @Test
    void takesWhatZooKeepersClientTakes() {
        for (String good : new String[] {"localhost:2181", "zk-1:2181, zk-2:2182/scrapy", "zk-1", "10.0.0.5:2181", "[::1]:2181"}) {
            assertEquals(Optional.empty(), ZooKeeperConnection.whyNot(good), good);
        }
    }

    @Test
    void refusesAnEmptyEntryOrABadPort() {
        assertEquals(Optional.of("the ZooKeeper address is empty"), ZooKeeperConnection.whyNot(" "));
        for (String bad : new String[] {"a:b:c", "zk-1:2181,", ", ,", "zk-1:0", "zk-1:65536", ":2181", "zk-1:"}) {
            assertTrue(ZooKeeperConnection.whyNot(bad).isPresent(), bad);
        }
    }

    @Test
    void saysWhyWhenNoHostResolves() {
        assertEquals(Optional.empty(), ZooKeeperConnection.to("no-such-host.invalid:2181,localhost:2181/scrapy").whyNoHostResolves(),
                "one host that resolves is enough");
        String why = ZooKeeperConnection.to("zk-a.invalid:2181,zk-b.invalid/scrapy").whyNoHostResolves().orElseThrow();
        assertTrue(why.startsWith("zk-a.invalid") && why.contains("; zk-b.invalid"), why);
    }

    @Test
    void aBadSettingIsASettingsErrorNamingIt() {
        Settings settings = Settings.load("redis-monitor", new SettingsSources(null, Map.of(), Map.of("ZOOKEEPER_HOSTS", ", ,")));
        SettingsException e = assertThrows(SettingsException.class, () -> ZooKeeperConnection.of(settings));
        assertEquals("Setting ZOOKEEPER_HOSTS (from the command line) '' in ', ,' is no host or host:port (zk-1:2181, 10.0.0.5:2181)",
                e.getMessage());
    }
}
