package org.scrapycluster.redismonitor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/** What a test of one plugin starts from: one Redis monitor on the shared stack, a spider and an appid of its own. */
@ExtendWith(SharedStack.class)
abstract class OneMonitorTest {

    /** A far-away {@code expires} (2100-01-01) that the enqueue script accepts. */
    static final long FAR = 4_102_444_800L;

    MonitorFixture fixture;
    QueueState queues;
    String appid;

    @BeforeEach
    void startMonitor(EmbeddedStack stack) {
        fixture = MonitorFixture.on(stack);
        queues = new QueueState(fixture.redis(), MonitorFixture.unique("spider"));
        appid = MonitorFixture.unique("app");
        fixture.startMonitor();
    }

    @AfterEach
    void stopMonitor() {
        fixture.close();
    }
}
