package org.scrapycluster.common.redis;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.DefaultEventLoopGroupProvider;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timer;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;

/**
 * The threads every Redis connection of a process shares: Lettuce's event loops, its computation threads and the
 * timer of command timeouts. Each connection used to build them for itself, so a {@code standalone} ran five event
 * loop groups and five timers, each timer ticking ten times a second; Netty's advice is one timer a process
 * (docs/benchmarks.md, "An idle standalone wakes less"). A connection's resources take these as given, so closing it
 * leaves them to the others: the event loops stop when the last connection using them is closed, and start again with
 * the next; the timer and the computation threads live as long as the process. All are daemon threads.
 */
final class LettuceThreads {

    private static final EventLoopGroupProvider EVENT_LOOPS = new DefaultEventLoopGroupProvider(DefaultClientResources.DEFAULT_IO_THREADS);
    private static final EventExecutorGroup COMPUTATION = new DefaultEventExecutorGroup(DefaultClientResources.DEFAULT_COMPUTATION_THREADS,
            new DefaultThreadFactory("lettuce-eventExecutorLoop", true));
    private static final Timer TIMER = new HashedWheelTimer(new DefaultThreadFactory("lettuce-timer", true));

    private LettuceThreads() {
    }

    /** Resources for one connection, on the shared threads; what else it needs (a latency recorder) is its own. */
    static ClientResources.Builder resources() {
        return ClientResources.builder().eventLoopGroupProvider(EVENT_LOOPS).eventExecutorGroup(COMPUTATION).timer(TIMER);
    }
}
