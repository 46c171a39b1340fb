package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * {@code ZOOKEEPER_DIGEST} (docs/operations.md "ZooKeeper credentials"): the services' sessions carry it, and the config
 * node they create lets that user write and anyone read, so a client without it (a Python crawler) still follows the
 * throttles while it cannot change them.
 */
@ExtendWith(SharedStack.class)
class ZooKeeperDigestTest {

    private static final String DIGEST = "scrapy-cluster:zk-secret";

    @Test
    void theNodeCreatedWithTheDigestIsWrittenByItsUserOnlyAndReadByAnyone(EmbeddedStack stack) throws Exception {
        String path = "/digest-test/" + UUID.randomUUID() + "/crawler/all";
        ZooKeeperConnection withDigest = connection(stack, Map.of("ZOOKEEPER_DIGEST", DIGEST));
        try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(withDigest, path);
             CuratorFramework anonymous = WatcherEvents.writer(stack.zookeeperConnect())) {
            store.update(config -> config.blacklistUpdate("bingo.com"));
            // ZooKeeper answers the digest's hash as "x" to a client that is not its user
            assertEquals(List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", "scrapy-cluster:x")),
                    new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE)), anonymous.getACL().forPath(path));
            assertEquals("blacklist:\n- bingo.com\ndomains: {}\n", new String(anonymous.getData().forPath(path), StandardCharsets.UTF_8));

            assertThrows(KeeperException.NoAuthException.class, () -> anonymous.setData().forPath(path, new byte[0]));
            try (ZooKeeperConfigStore without = ZooKeeperConfigStore.open(connection(stack, Map.of()), path)) {
                ZooKeeperConfigException e = assertThrows(ZooKeeperConfigException.class,
                        () -> without.update(config -> config.domainUpdate("cnn.com", 60, 10, 1.0)));
                assertEquals(ZooKeeperConfigException.Failure.STORE, e.failure());
                assertTrue(e.getMessage().contains("NoAuth") && e.getMessage().contains("ZOOKEEPER_DIGEST"), e.getMessage());
            }
            store.update(config -> config.domainUpdate("cnn.com", 60, 10, 1.0));
            assertTrue(store.readText().contains("cnn.com"));
        }
    }

    @Test
    void aDigestWithoutAUserIsRefusedWithoutBeingQuotedAndNeverLogged(EmbeddedStack stack) {
        SettingsException e = assertThrows(SettingsException.class, () -> connection(stack, Map.of("ZOOKEEPER_DIGEST", ":zk-secret")));
        assertTrue(e.getMessage().contains("ZOOKEEPER_DIGEST"), e.getMessage());
        assertFalse(e.getMessage().contains("zk-secret"), e.getMessage());
        String logged = connection(stack, Map.of("ZOOKEEPER_DIGEST", DIGEST)).toString();
        assertTrue(logged.contains("user scrapy-cluster"), logged);
        assertFalse(logged.contains("zk-secret"), logged);
    }

    private static ZooKeeperConnection connection(EmbeddedStack stack, Map<String, String> values) {
        Map<String, String> settings = new HashMap<>(values);
        settings.put("ZOOKEEPER_HOSTS", stack.zookeeperConnect());
        return ZooKeeperConnection.of(Settings.load("crawler", new SettingsSources(null, settings, Map.of())));
    }
}
