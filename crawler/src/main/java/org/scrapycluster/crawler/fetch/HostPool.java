package org.scrapycluster.crawler.fetch;

import java.util.ArrayDeque;

import io.netty.channel.Channel;

/**
 * The state of one host:port: fetches holding its slots, fetches waiting for one, and its idle kept-alive
 * connections (most recently used last). Guarded by the {@link Dispatcher}'s lock.
 */
final class HostPool {

    final HostKey key;
    final ArrayDeque<FetchCall> waiting = new ArrayDeque<>();
    final ArrayDeque<Channel> idle = new ArrayDeque<>();
    int active;
    boolean inReadyQueue;

    HostPool(HostKey key) {
        this.key = key;
    }

    boolean isUnused() {
        return active == 0 && waiting.isEmpty() && idle.isEmpty();
    }
}
