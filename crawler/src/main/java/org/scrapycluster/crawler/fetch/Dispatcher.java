package org.scrapycluster.crawler.fetch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * Hands out fetch slots under the total and per-host concurrency limits, queues what must wait (served
 * round-robin across hosts, first come first served within one), and keeps the idle connections of every
 * host. One lock guards it all. It starts nothing itself: {@link #submit} and {@link #finished} say which
 * calls got a slot, and their caller starts them, outside the lock.
 */
final class Dispatcher {

    private static final AttributeKey<ScheduledFuture<?>> IDLE_TIMER = AttributeKey.valueOf("scrapycluster.idleTimer");

    private final int maxActive;
    private final int maxPerHost;
    private final int maxIdle;
    private final long idleTimeoutNanos;
    private final Map<HostKey, HostPool> pools = new HashMap<>();
    private final ArrayDeque<HostPool> ready = new ArrayDeque<>();
    private int active;
    private int queued;
    private int idle;
    private boolean closed;

    /** What {@link #submit} did with a call. */
    enum Admission {
        /** It holds a slot: the caller starts it now. */
        STARTED,
        /** It waits for a slot; {@link #finished} hands it out. */
        QUEUED,
        /** The dispatcher is closed: the call is refused. */
        CLOSED
    }

    Dispatcher(FetcherConfig config) {
        this.maxActive = config.maxConnections();
        this.maxPerHost = config.maxConnectionsPerHost();
        this.maxIdle = config.maxIdleConnections();
        this.idleTimeoutNanos = config.idleConnectionTimeout().toNanos();
    }

    /** Gives {@code call} a slot now if the limits allow, else queues it. */
    synchronized Admission submit(FetchCall call) {
        if (closed) {
            return Admission.CLOSED;
        }
        HostPool pool = pools.computeIfAbsent(call.key, HostPool::new);
        call.pool = pool;
        if (active < maxActive && pool.active < maxPerHost && pool.waiting.isEmpty()) {
            activate(pool);
            return Admission.STARTED;
        }
        pool.waiting.addLast(call);
        queued++;
        markReady(pool);
        return Admission.QUEUED;
    }

    /** Gives back the slot of a started call; returns the waiting calls that got a slot, for the caller to start. */
    List<FetchCall> finished(FetchCall call) {
        List<FetchCall> next = new ArrayList<>(2);
        synchronized (this) {
            HostPool pool = call.pool;
            active--;
            pool.active--;
            markReady(pool);
            while (active < maxActive && !ready.isEmpty()) {
                HostPool candidate = ready.pollFirst();
                candidate.inReadyQueue = false;
                if (candidate.waiting.isEmpty() || candidate.active >= maxPerHost) {
                    forgetIfUnused(candidate); // its calls were withdrawn while it waited here
                    continue;
                }
                FetchCall waiting = candidate.waiting.pollFirst();
                queued--;
                activate(candidate);
                next.add(waiting);
                markReady(candidate);
            }
            forgetIfUnused(pool);
        }
        return next;
    }

    /** Takes a queued call out of its queue (it was cancelled before it started); false when it had started. */
    synchronized boolean withdraw(FetchCall call) {
        HostPool pool = call.pool;
        if (pool != null && pool.waiting.remove(call)) {
            queued--;
            forgetIfUnused(pool);
            return true;
        }
        return false;
    }

    /** The most recently used live idle connection of the call's host, or null. */
    synchronized Channel takeIdle(FetchCall call) {
        HostPool pool = call.pool;
        while (!pool.idle.isEmpty()) {
            Channel channel = pool.idle.pollLast();
            idle--;
            ScheduledFuture<?> timer = channel.attr(IDLE_TIMER).getAndSet(null);
            if (timer != null) {
                timer.cancel(false);
            }
            if (channel.isActive()) {
                return channel;
            }
            channel.close();
        }
        return null;
    }

    /** Keeps a connection whose exchange completed cleanly for the host's next request, or closes it. */
    void release(HostKey key, Channel channel) {
        synchronized (this) {
            HostPool pool = pools.get(key);
            if (!closed && pool != null && channel.isActive() && idle < maxIdle && pool.idle.size() < maxPerHost) {
                pool.idle.addLast(channel);
                idle++;
                channel.attr(IDLE_TIMER).set(channel.eventLoop().schedule(() -> expire(key, channel),
                        idleTimeoutNanos, TimeUnit.NANOSECONDS));
                return;
            }
        }
        channel.close();
    }

    /** Forgets a connection that closed while idle: whether it was idle. */
    synchronized boolean closed(HostKey key, Channel channel) {
        HostPool pool = pools.get(key);
        if (pool != null && pool.idle.remove(channel)) {
            idle--;
            forgetIfUnused(pool);
            return true;
        }
        return false;
    }

    /**
     * Closes a connection idle for the idle timeout; not one a request took as the timer fired (its cancel came too
     * late to stop the timer, and the request would lose its connection).
     */
    private void expire(HostKey key, Channel channel) {
        if (closed(key, channel)) {
            channel.close();
        }
    }

    /**
     * Stops taking calls and returns the ones still waiting; closes idle connections. Calls holding a slot are
     * the caller's to abort.
     */
    List<FetchCall> close() {
        List<FetchCall> waiting = new ArrayList<>();
        List<Channel> idleChannels = new ArrayList<>();
        synchronized (this) {
            closed = true;
            for (HostPool pool : pools.values()) {
                waiting.addAll(pool.waiting);
                pool.waiting.clear();
                idleChannels.addAll(pool.idle);
                pool.idle.clear();
            }
            queued = 0;
            idle = 0;
            ready.clear();
        }
        idleChannels.forEach(Channel::close);
        return waiting;
    }

    synchronized FetcherStats stats() {
        return new FetcherStats(active, queued, idle, pools.size());
    }

    private void activate(HostPool pool) {
        active++;
        pool.active++;
    }

    private void markReady(HostPool pool) {
        if (!pool.inReadyQueue && !pool.waiting.isEmpty() && pool.active < maxPerHost) {
            pool.inReadyQueue = true;
            ready.addLast(pool);
        }
    }

    private void forgetIfUnused(HostPool pool) {
        if (pool.isUnused() && !pool.inReadyQueue) {
            pools.remove(pool.key);
        }
    }
}
