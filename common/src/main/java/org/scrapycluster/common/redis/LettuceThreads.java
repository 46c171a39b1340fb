package org.scrapycluster.common.redis;

import java.util.concurrent.TimeUnit;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.DefaultEventLoopGroupProvider;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.netty.channel.EventLoopGroup;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timer;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;

/**
 * The threads every Redis connection of a process shares: Lettuce's event loops, its computation threads and the
 * timer of command timeouts. Each connection used to build them for itself, so a {@code standalone} ran five event
 * loop groups and five timers, each timer ticking ten times a second; Netty's advice is one timer a process
 * (docs/cpu-per-page.md, "An idle standalone wakes less"). A connection's resources take these as given, so closing it
 * leaves them to the others. All live as long as the process, and are daemon threads.
 *
 * <p>The event loops too: each connection attempt leaves its handshake's timeout on the shared timer, and Lettuce
 * cancels it only when the handshake succeeds. An attempt that failed (refused, say) has its timeout fire once the
 * endpoint's timeout has passed, and close its channel again on that channel's event loop. Had the event loops stopped
 * with the last connection, as Lettuce stops them when nothing holds them, that close would be refused and Netty would
 * log "Failed to submit a listener notification task. Event loop shut down?" at ERROR: once an attempt, every few
 * seconds, from a service waiting for a Redis that refuses connections while no other connection was open.
 */
final class LettuceThreads {

    private static final EventLoopGroupProvider EVENT_LOOPS = new ProcessEventLoops();
    private static final EventExecutorGroup COMPUTATION = new DefaultEventExecutorGroup(DefaultClientResources.DEFAULT_COMPUTATION_THREADS,
            new DefaultThreadFactory("lettuce-eventExecutorLoop", true));
    private static final Timer TIMER = new HashedWheelTimer(new DefaultThreadFactory("lettuce-timer", true));

    private LettuceThreads() {
    }

    /**
     * Resources for one connection, on the shared threads, reconnecting as the services retry ({@link ReconnectDelay});
     * what else it needs (a latency recorder) is its own.
     */
    static ClientResources.Builder resources() {
        return ClientResources.builder().eventLoopGroupProvider(EVENT_LOOPS).eventExecutorGroup(COMPUTATION).timer(TIMER)
                .reconnectDelay(new ReconnectDelay());
    }

    /** Lettuce's event loop groups, made on first use; a connection's release, and a shutdown, leave them running. */
    private static final class ProcessEventLoops implements EventLoopGroupProvider {

        private final DefaultEventLoopGroupProvider groups = new DefaultEventLoopGroupProvider(DefaultClientResources.DEFAULT_IO_THREADS);

        @Override
        public <T extends EventLoopGroup> T allocate(Class<T> type) {
            return groups.allocate(type);
        }

        @Override
        public int threadPoolSize() {
            return groups.threadPoolSize();
        }

        @Override
        public Future<Boolean> release(EventExecutorGroup group, long quietPeriod, long timeout, TimeUnit unit) {
            return ImmediateEventExecutor.INSTANCE.newSucceededFuture(true);
        }

        @Override
        public Future<Boolean> shutdown(long quietPeriod, long timeout, TimeUnit unit) {
            return ImmediateEventExecutor.INSTANCE.newSucceededFuture(true);
        }
    }
}
