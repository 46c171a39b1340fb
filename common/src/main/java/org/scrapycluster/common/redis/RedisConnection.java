package org.scrapycluster.common.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.event.command.CommandBaseEvent;
import io.lettuce.core.event.command.CommandFailedEvent;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import io.lettuce.core.event.command.CommandSucceededEvent;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.resource.ClientResources;
import io.micrometer.core.instrument.MeterRegistry;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.common.service.Causes;
import org.scrapycluster.common.service.StopBudget;
import org.slf4j.Logger;

/**
 * One thread-safe, multiplexed connection to Redis, shared by every Redis user of a service.
 *
 * <p>While Redis is unreachable, commands fail at once ({@code REJECT_COMMANDS}) instead of
 * queueing without bound, so that each caller retries with its own back-off; the connection
 * reconnects by itself in the background. Commands, including asynchronous ones, time out after
 * the endpoint's timeout. With Sentinels, every (re)connection asks them for the current master, and they are asked
 * every second too: when they name another master, the connection is made again ({@link MasterWatch}).
 * A Redis that hangs, or a network that drops its packets, leaves the connection open while no
 * command is answered: {@link #answers()} tells that apart, for the health checks.
 * Scripts need Redis 5 or newer (effect replication of scripts that read
 * the server clock).
 */
public final class RedisConnection implements AutoCloseable {

    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);
    private static final String VERSION_FIELD = "redis_version:";
    /** The most different reasons for failing to connect that one {@link #openRetrying} says. */
    static final int REASONS_SAID = 3;
    /** After how many failed attempts in a row {@link #openRetrying} says again that it still cannot connect (4 to 5 minutes). */
    static final int STILL_SAID_EVERY = 30;
    /**
     * How long a reconnection waits for the current connection's server to say who it is (a hung one does not): longer
     * than the Redis monitor's blocking wait for job signals (one second), which the question queues behind.
     */
    private static final Duration SAME_SERVER_WAIT = Duration.ofSeconds(2);
    private static final String RUN_ID_FIELD = "run_id:";
    /** Lettuce's words when every Sentinel reached says it knows no master of the name asked for. */
    private static final String NO_SUCH_MASTER = "Cannot provide redisAddress using sentinel for masterId";

    private final RedisEndpoint endpoint;
    private final RedisClient client;
    private final ClientResources resources;
    private final Answers answers;
    /** Replaced, with Sentinels, when they name another master ({@link MasterWatch}). */
    private volatile StatefulRedisConnection<String, String> connection;
    /** Null without Sentinels. */
    private final MasterWatch masterWatch;
    /** Set by {@link #close()}: a reconnection that ends after it closes what it made. */
    private boolean closed;

    private RedisConnection(RedisEndpoint endpoint, RedisClient client, ClientResources resources,
                            StatefulRedisConnection<String, String> connection, Answers answers) {
        this.endpoint = endpoint;
        this.client = client;
        this.resources = resources;
        this.connection = connection;
        this.answers = answers;
        this.masterWatch = endpoint.usesSentinels() ? new MasterWatch(client, endpoint.sentinelMaster(), this::reconnect) : null;
    }

    /**
     * Connects again (Lettuce asks the Sentinels where the master is) and closes the connection it replaces, whose
     * commands still waiting fail now rather than reach a master the Sentinels have given up: a master that hangs keeps
     * its connections open, and would take them when it woke, until the Sentinels demote it and drop what it took.
     */
    private void reconnect() {
        StatefulRedisConnection<String, String> fresh = client.connect(Utf8Codec.INSTANCE);
        StatefulRedisConnection<String, String> old;
        try {
            Object role = fresh.sync().role().getFirst();
            if (!"master".equals(String.valueOf(role))) {
                throw new RedisException("the Redis the Sentinels named answers ROLE with " + role + ", not master");
            }
            String reached = runId(fresh);
            if (!reached.isEmpty() && reached.equals(runIdWithin(connection, SAME_SERVER_WAIT))) {
                fresh.closeAsync(); // Lettuce reconnected there by itself (the old master died): nothing to move
                return;
            }
        } catch (RuntimeException e) {
            fresh.closeAsync();
            throw e;
        }
        synchronized (this) {
            if (closed) {
                fresh.closeAsync();
                return;
            }
            old = connection;
            connection = fresh;
        }
        old.closeAsync();
    }

    /**
     * Connects to {@code endpoint}, without recording command latencies.
     *
     * @throws io.lettuce.core.RedisConnectionException when Redis cannot be reached now; the caller
     *         decides whether to retry
     */
    public static RedisConnection open(RedisEndpoint endpoint) {
        return open(endpoint, LettuceThreads.resources().build());
    }

    /**
     * Connects to {@code endpoint}, recording the latency of every command in {@code meters}
     * (Lettuce's timers {@code lettuce.command.completion} and {@code lettuce.command.firstresponse}, by
     * command; the completion timer with the histogram buckets of {@link RedisLatencyRecorder}: Prometheus
     * {@code lettuce_command_completion_seconds_bucket}).
     *
     * @throws io.lettuce.core.RedisConnectionException when Redis cannot be reached now
     */
    public static RedisConnection open(RedisEndpoint endpoint, MeterRegistry meters) {
        return open(endpoint, LettuceThreads.resources().commandLatencyRecorder(new RedisLatencyRecorder(meters)).build());
    }

    private static RedisConnection open(RedisEndpoint endpoint, ClientResources resources) {
        RedisClient client = RedisClient.create(resources, uri(endpoint));
        ClientOptions.Builder options = ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(endpoint.timeout()).keepAlive(true).build())
                .timeoutOptions(TimeoutOptions.enabled());
        if (endpoint.usesTls()) {
            options.sslOptions(endpoint.tls().sslOptions());
        }
        client.setOptions(options.build());
        Answers answers = new Answers();
        client.addListener(answers);
        try {
            return new RedisConnection(endpoint, client, resources, client.connect(Utf8Codec.INSTANCE), answers);
        } catch (RuntimeException e) {
            client.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT);
            resources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    /**
     * The URI of the endpoint: the server itself, or, with Sentinels, the Sentinels and the master's
     * name; Lettuce then asks them where the master is at every (re)connection, so that a failover
     * moves the connection to the promoted replica. The builder's user and password are the data nodes' only
     * ({@code build()} gives each Sentinel's URI the timeout alone, and {@code withSsl} the TLS), so each Sentinel gets
     * the Sentinels' user and password of their own (docs/operations.md "Redis failover"), or none.
     */
    static RedisURI uri(RedisEndpoint endpoint) {
        RedisURI.Builder uri;
        if (endpoint.usesSentinels()) {
            uri = RedisURI.builder().withSentinelMasterId(endpoint.sentinelMaster());
            for (RedisEndpoint.Sentinel sentinel : endpoint.sentinels()) {
                RedisURI.Builder sentinelUri = RedisURI.builder().withHost(sentinel.host()).withPort(sentinel.port());
                uri.withSentinel(loggedIn(sentinelUri, endpoint.sentinelUsername(), endpoint.sentinelPassword()).build());
            }
        } else {
            uri = RedisURI.Builder.redis(endpoint.host(), endpoint.port());
        }
        uri.withDatabase(endpoint.db()).withSsl(endpoint.usesTls()).withTimeout(endpoint.timeout());
        return loggedIn(uri, endpoint.username(), endpoint.password()).build();
    }

    /**
     * {@code uri} logging in as {@code username} (AUTH &lt;user&gt; &lt;password&gt;; a user made with nopass takes any
     * password, the empty one included), or as the default user with {@code password}, or not at all when both are null.
     */
    private static RedisURI.Builder loggedIn(RedisURI.Builder uri, String username, String password) {
        if (username != null) {
            uri.withAuthentication(username, password == null ? "" : password);
        } else if (password != null) {
            uri.withPassword(password.toCharArray());
        }
        return uri;
    }

    /**
     * The {@code run_id} of the server {@code connection} reaches, which no other server shares; empty when it does not
     * say (INFO renamed or refused by an ACL, a server without one).
     */
    private static String runId(StatefulRedisConnection<String, String> connection) {
        try {
            return runIdOf(connection.sync().info("server"));
        } catch (RedisCommandExecutionException e) {
            return "";
        }
    }

    /** The {@code run_id} of the server {@code connection} reaches, or empty when it does not say within {@code wait}. */
    private static String runIdWithin(StatefulRedisConnection<String, String> connection, Duration wait) {
        try {
            return runIdOf(connection.async().info("server").get(wait.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        } catch (ExecutionException | TimeoutException | CancellationException | RedisException e) {
            return "";
        }
    }

    private static String runIdOf(String serverInfo) {
        return infoField(serverInfo, RUN_ID_FIELD).orElse("");
    }

    /**
     * Connects to {@code endpoint} as {@link #open(RedisEndpoint, MeterRegistry)} does, retrying with back-off ({@link Backoff#standard()}) while Redis
     * cannot be reached. Each different reason an attempt fails for is said on {@code log} as a warning, once, up to
     * {@link #REASONS_SAID} of them, and the connection made after failures as info, so that an outage at start-up is
     * logged a few times, not once per attempt, and then again every {@link #STILL_SAID_EVERY} attempts while it lasts, so that
     * a log read later still says why the service waits. A reason of its own is said because Lettuce sometimes ends an attempt a
     * Sentinel refused with the connection's end ("RedisHandshakeHandler not registered") rather than the refusal
     * ({@code NOAUTH}, {@code WRONGPASS}), which a later attempt then says.
     *
     * @param stopped asked before each attempt; true gives up, e.g. when the service is closing
     * @return the connection, or empty when {@code stopped} said so or the thread was interrupted (during an attempt
     *         too, which is then not logged as a failure)
     */
    public static Optional<RedisConnection> openRetrying(RedisEndpoint endpoint, MeterRegistry meters, Logger log, BooleanSupplier stopped) {
        return openRetrying(endpoint, meters, log, stopped, Backoff.standard());
    }

    /** {@link #openRetrying(RedisEndpoint, MeterRegistry, Logger, BooleanSupplier)} with the pauses of {@code backoff}. */
    static Optional<RedisConnection> openRetrying(RedisEndpoint endpoint, MeterRegistry meters, Logger log, BooleanSupplier stopped,
            Backoff backoff) {
        Set<String> said = new HashSet<>();
        while (!stopped.getAsBoolean()) {
            try {
                RedisConnection connection = open(endpoint, meters);
                if (backoff.attempts() > 0) {
                    log.info("Connected to Redis at {}", endpoint);
                }
                return Optional.of(connection);
            } catch (RedisException e) {
                if (Thread.currentThread().isInterrupted()) {
                    return Optional.empty(); // the attempt was cut short: the caller is stopping, Redis may be fine
                }
                String reason = reason(e);
                if (said.size() < REASONS_SAID && said.add(reason)) {
                    log.warn("Cannot connect to Redis at {} ({}){}; retrying", endpoint, reason, hint(endpoint, reason));
                } else if ((backoff.attempts() + 1) % STILL_SAID_EVERY == 0) {
                    log.warn("Still cannot connect to Redis at {} after {} attempts ({}){}; retrying", endpoint, backoff.attempts() + 1,
                            reason, hint(endpoint, reason));
                }
                try {
                    backoff.pause();
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /** What an operator should check when the Sentinels answer but none names the master ({@code REDIS_SENTINEL_MASTER}). */
    static String hint(RedisEndpoint endpoint, String reason) {
        return endpoint.usesSentinels() && reason.contains(NO_SUCH_MASTER) ? "; the Sentinel asked (the first of REDIS_SENTINELS"
                + " that answers) monitors no master named '" + endpoint.sentinelMaster()
                + "': check REDIS_SENTINEL_MASTER against its 'sentinel monitor' lines" : "";
    }

    /**
     * The failure's message, followed by its innermost cause's when that is another: a Sentinel's refusal
     * ({@code NOAUTH}, {@code WRONGPASS}) lies under Lettuce's "Cannot connect to a Redis Sentinel". Neither
     * holds a password: Redis does not repeat it, and Lettuce prints a URI's password as asterisks.
     */
    static String reason(RedisException e) {
        Throwable innermost = Causes.innermost(e);
        String message = e.getMessage();
        String cause = innermost.getMessage();
        return innermost == e || cause == null || cause.equals(message) ? message : message + ": " + cause;
    }

    public RedisEndpoint endpoint() {
        return endpoint;
    }

    /** Blocking commands, each bounded by the endpoint's timeout. */
    public RedisCommands<String, String> sync() {
        return connection.sync();
    }

    /** Non-blocking commands: many in flight at once are pipelined on the one connection. */
    public RedisAsyncCommands<String, String> async() {
        return connection.async();
    }

    /**
     * Subscribes to {@code channel} on a pub/sub connection of its own ({@link ChannelListener}), which runs
     * {@code heard} on each message and each confirmed subscription; a refused subscription is said on {@code log}.
     *
     * @throws io.lettuce.core.RedisConnectionException when Redis cannot be reached now
     */
    public ChannelListener listen(String channel, Runnable heard, Logger log) {
        return new ChannelListener(client.connectPubSub(Utf8Codec.INSTANCE), channel, heard, log);
    }

    /** Whether the connection is up now (it may drop and come back at any time). */
    public boolean isConnected() {
        return connection.isOpen();
    }

    /**
     * Whether Redis answers: the connection is up and no command has waited for an answer longer than the
     * endpoint's timeout. Known without asking Redis, from the commands the service sends anyway; false from such a
     * wait until Redis answers a command.
     */
    public boolean answers() {
        return isConnected() && answers.within(endpoint.timeout());
    }

    /**
     * Makes one of a stopping service's last writes within what {@code budget} keeps for them (its
     * {@linkplain StopBudget#reservedWaitFor reserved wait}, at most the endpoint's timeout): not sent when the budget is
     * spent or Redis is not answering ({@link #answers()}), and given up when Redis does not take it in time or fails
     * it. Either way {@code what} (the write, and what becomes of it) is noted in the budget as given up, followed by
     * why: only a write sent and not taken in time says that Redis did not take it.
     *
     * @return whether Redis took it
     */
    public boolean writeAtStop(StopBudget budget, String what, Supplier<? extends CompletionStage<?>> write) {
        Duration wait = budget.reservedWaitFor(endpoint.timeout());
        if (wait.isZero()) {
            budget.gaveUp(what + ": not sent, the stop's time was used up before it");
            return false;
        }
        if (!answers()) {
            budget.gaveUp(what + ": not sent, Redis was not answering");
            return false;
        }
        try {
            write.get().toCompletableFuture().get(wait.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            budget.gaveUp(what + ": Redis did not take it within " + String.format(Locale.ROOT, "%.1f", wait.toMillis() / 1000.0) + " s");
        } catch (ExecutionException e) {
            budget.gaveUp(what + ": Redis failed it (" + e.getCause() + ")");
        } catch (RedisException e) {
            budget.gaveUp(what + ": not sent (" + e + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            budget.gaveUp(what + ": not waited for, the stop was interrupted");
        }
        return false;
    }

    /**
     * Whether the server is Redis 6.0 or newer ({@code INFO server}), which takes {@code SCAN ... TYPE} and a blocking
     * command's timeout in fractions of a second; older servers take whole seconds only, and refuse {@code 1.0}. A user
     * that may not run {@code INFO} ({@code NOPERM}) is on Redis 6.0 or newer too: access control lists came with 6.0.
     */
    public boolean isRedis6OrNewer() {
        try {
            return isRedis6OrNewer(sync().info("server"));
        } catch (RedisCommandExecutionException e) {
            if (RedisErrors.isPermissionRefusal(e)) {
                return true;
            }
            throw e;
        }
    }

    /** Whether the {@code INFO server} text {@code serverInfo} names a {@code redis_version} of 6.0 or newer. */
    static boolean isRedis6OrNewer(String serverInfo) {
        return infoField(serverInfo, VERSION_FIELD).map(version -> version.split("\\.")[0])
                .filter(major -> major.matches("\\d{1,4}")).map(major -> Integer.parseInt(major) >= 6).orElse(false);
    }

    /** The value of the line of {@code INFO} text {@code info} that starts with {@code field} ({@code run_id:}), stripped. */
    private static Optional<String> infoField(String info, String field) {
        return info.lines().filter(line -> line.startsWith(field)).findFirst().map(line -> line.substring(field.length()).strip());
    }

    /** The time by Redis's clock ({@code TIME}): the clock the scripts stamp the throttle windows and the accounting with. */
    public Instant serverTime() {
        List<String> time = sync().time();
        return Instant.ofEpochSecond(Long.parseLong(time.get(0)), Long.parseLong(time.get(1)) * 1000);
    }

    /**
     * Waits for an asynchronous result, at most the endpoint's timeout plus a second (the command
     * itself times out first), and rethrows its failure as the {@link RedisException} it was.
     */
    public <T> T await(CompletionStage<T> pending) {
        Duration limit = endpoint.timeout().plusSeconds(1);
        try {
            return pending.toCompletableFuture().get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RedisException redis) {
                throw redis;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new RedisException(cause);
        } catch (TimeoutException e) {
            throw new RedisCommandTimeoutException("no answer from Redis at " + endpoint + " within " + limit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisCommandInterruptedException(e);
        }
    }

    @Override
    public void close() {
        if (masterWatch != null) {
            masterWatch.close();
        }
        StatefulRedisConnection<String, String> current;
        synchronized (this) {
            closed = true;
            current = connection;
        }
        current.close();
        client.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT);
        resources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public String toString() {
        return "RedisConnection[" + endpoint + "]";
    }

    /**
     * When the oldest command sent since Redis last answered was sent. A command that times out is cancelled
     * without a word to the listeners, so a hung Redis shows as a command waiting longer than the timeout.
     */
    private static final class Answers implements CommandListener {

        private static final long NONE = Long.MIN_VALUE;

        private final AtomicLong unansweredSince = new AtomicLong(NONE);

        @Override
        public void commandStarted(CommandStartedEvent event) {
            if (ofSentinel(event)) {
                return;
            }
            if (unansweredSince.get() == NONE) {
                unansweredSince.compareAndSet(NONE, System.nanoTime());
            }
        }

        @Override
        public void commandSucceeded(CommandSucceededEvent event) {
            if (!ofSentinel(event)) {
                answered();
            }
        }

        @Override
        public void commandFailed(CommandFailedEvent event) {
            if (!ofSentinel(event) && event.getCause() instanceof RedisCommandExecutionException) {
                answered();
            }
        }

        /**
         * Whether {@code event} is of a command to a Sentinel (Lettuce's look-up of the master, or {@link MasterWatch}'s):
         * the client's listeners hear those too, and a Sentinel's answer says nothing of whether Redis answers.
         */
        private static boolean ofSentinel(CommandBaseEvent event) {
            return event.getCommand().getType() == CommandType.SENTINEL;
        }

        /** Whether no command has waited for its answer longer than {@code timeout}. */
        boolean within(Duration timeout) {
            long since = unansweredSince.get();
            return since == NONE || System.nanoTime() - since < timeout.toNanos();
        }

        private void answered() {
            if (unansweredSince.get() != NONE) {
                unansweredSince.set(NONE);
            }
        }
    }
}
