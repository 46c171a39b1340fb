package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.KillArgs;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
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
    private static final String CHANNEL = "spider:active_domains:added";

    private final EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("channel-listener"));
    private final RedisConnection redis = TestRedis.connect(server);
    private final AtomicInteger heard = new AtomicInteger();

    @AfterEach
    void stop() {
        redis.close();
        server.close();
    }

    private ChannelListener listen() {
        return redis.listen(CHANNEL, heard::incrementAndGet, LOG);
    }

    @Test
    void hearsTheSubscriptionAndEachMessage() {
        try (ChannelListener listener = listen()) {
            Awaitility.await().atMost(WAIT).until(listener::subscribed);
            assertEquals(1, heard.get(), "the confirmed subscription");

            assertEquals(1, redis.sync().publish(CHANNEL, "example.com"), "one subscriber");
            assertEquals(1, redis.sync().publish(CHANNEL, "example.org"));
            Awaitility.await().atMost(WAIT).until(() -> heard.get() == 3);
        }
    }

    @Test
    void subscribesAgainAfterItsConnectionDropsAndSaysSo() {
        try (ChannelListener listener = listen()) {
            Awaitility.await().atMost(WAIT).until(listener::subscribed);

            redis.sync().clientKill(KillArgs.Builder.typePubsub());

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> heard.get() >= 2);
            Awaitility.await().atMost(WAIT).until(() -> redis.sync().publish(CHANNEL, "example.com") == 1);
        }
    }

    @Test
    void asksAgainWhileAnAclRefusesTheChannelAndSaysSoOnce() {
        try (CapturedLog log = CapturedLog.start(ChannelListenerTest.class, Level.WARN)) {
            redis.sync().aclSetuser("default", AclSetuserArgs.Builder.resetChannels());
            try (ChannelListener listener = listen()) {
                listener.keep();
                listener.keep();
                Awaitility.await().atMost(WAIT).until(() -> redis.sync().info("errorstats").contains("errorstat_NOPERM:count=3"));
                assertFalse(listener.subscribed());

                redis.sync().aclSetuser("default", AclSetuserArgs.Builder.allChannels());
                listener.keep();
                Awaitility.await().atMost(WAIT).until(listener::subscribed);
                assertEquals(1, heard.get());
            }
            List<String> lines = log.lines();
            assertEquals(1, lines.size(), lines.toString());
            assertEquals("WARN Redis refuses a subscription to spider:active_domains:added (NOPERM this user has no permissions "
                    + "to access one of the channels used as arguments); asking again until it allows it", lines.getFirst());
        }
    }
}
