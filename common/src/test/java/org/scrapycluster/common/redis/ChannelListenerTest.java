package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.KillArgs;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;

/** A listener hears each message of its channel and each confirmed subscription, across reconnections and refusals. */
class ChannelListenerTest {

    private static final Logger LOG = LoggerFactory.getLogger(ChannelListenerTest.class);
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void hearsTheSubscriptionAndEachMessageOfItsChannelOnly() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("channel-messages"));
             RedisConnection redis = TestRedis.connect(server)) {
            AtomicInteger heard = new AtomicInteger();
            try (ChannelListener listener = redis.listen("spider:active_domains:added", heard::incrementAndGet, LOG)) {
                Awaitility.await().atMost(WAIT).until(listener::subscribed);
                assertEquals(1, heard.get(), "the confirmed subscription");

                redis.sync().publish("spider:active_domains:added", "example.com");
                Awaitility.await().atMost(WAIT).until(() -> heard.get() == 2);

                // delivered in order on one connection: had the other channel counted, the last message would make 4
                redis.sync().publish("other:active_domains:added", "example.com");
                redis.sync().publish("spider:active_domains:added", "example.org");
                Awaitility.await().atMost(WAIT).until(() -> heard.get() >= 3);
                redis.sync().publish("spider:active_domains:added", "example.net");
                Awaitility.await().atMost(WAIT).until(() -> heard.get() >= 4);
                assertEquals(4, heard.get());
            }
        }
    }

    @Test
    void subscribesAgainAfterItsConnectionDropsAndSaysSo() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("channel-reconnect"));
             RedisConnection redis = TestRedis.connect(server)) {
            AtomicInteger heard = new AtomicInteger();
            try (ChannelListener listener = redis.listen("spider:active_domains:added", heard::incrementAndGet, LOG)) {
                Awaitility.await().atMost(WAIT).until(listener::subscribed);

                redis.sync().clientKill(KillArgs.Builder.typePubsub());

                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> heard.get() >= 2);
                Awaitility.await().atMost(WAIT).ignoreExceptions()
                        .until(() -> redis.sync().publish("spider:active_domains:added", "example.com") == 1);
            }
        }
    }

    @Test
    void asksAgainWhileAnAclRefusesTheChannelAndSaysSoOnce() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("channel-acl"));
             RedisConnection redis = TestRedis.connect(server);
             CapturedLog log = CapturedLog.start(ChannelListenerTest.class, Level.WARN)) {
            redis.sync().aclSetuser("default", AclSetuserArgs.Builder.resetChannels());
            AtomicInteger heard = new AtomicInteger();
            try (ChannelListener listener = redis.listen("spider:active_domains:added", heard::incrementAndGet, LOG)) {
                Awaitility.await().atMost(WAIT).until(() -> !log.lines().isEmpty());
                listener.keep();
                listener.keep();
                assertFalse(listener.subscribed());

                redis.sync().aclSetuser("default", AclSetuserArgs.Builder.allChannels());
                listener.keep();
                Awaitility.await().atMost(WAIT).until(listener::subscribed);
                assertEquals(1, heard.get());
            }
            List<String> lines = log.lines();
            assertEquals(1, lines.size(), lines.toString());
            assertEquals("WARN Redis refuses a subscription to spider:active_domains:added (NOPERM this user has no permissions "
                    + "to access one of the channels used as arguments); asking again, and polling meanwhile", lines.getFirst());
        }
    }
}
