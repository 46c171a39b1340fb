package org.scrapycluster.rest.gateway;

import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.handler.codec.http.HttpMethod;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.metrics.HealthReport;
import org.scrapycluster.common.metrics.MetricsServer;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.service.FatalExit;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.stats.Heartbeat;
import org.scrapycluster.rest.access.AccessEndpoint;
import org.scrapycluster.rest.access.ApiKeys;
import org.scrapycluster.rest.feed.FeedAccess;
import org.scrapycluster.rest.feed.FeedEndpoint;
import org.scrapycluster.rest.feed.FeedValidation;
import org.scrapycluster.rest.feed.OutboundAnswers;
import org.scrapycluster.rest.feed.PendingAnswers;
import org.scrapycluster.rest.http.Access;
import org.scrapycluster.rest.http.AccessRule;
import org.scrapycluster.common.domain.AllowedHosts;
import org.scrapycluster.rest.http.Dispatcher;
import org.scrapycluster.rest.http.Envelope;
import org.scrapycluster.rest.http.GatewayServer;
import org.scrapycluster.rest.http.HttpAnswer;
import org.scrapycluster.rest.http.HttpCall;
import org.scrapycluster.rest.http.HttpMetrics;
import org.scrapycluster.rest.http.JsonBodies;
import org.scrapycluster.rest.http.Router;
import org.scrapycluster.rest.http.ServerLimits;
import org.scrapycluster.rest.link.KafkaLink;
import org.scrapycluster.rest.link.RedisLink;
import org.scrapycluster.rest.live.LiveView;
import org.scrapycluster.rest.poll.ParkedAnswers;
import org.scrapycluster.rest.poll.PollEndpoint;
import org.scrapycluster.rest.tls.GatewayTls;
import org.scrapycluster.rest.ui.UiFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST gateway (docs/compatibility.md §6): an HTTP server on {@code FLASK_HOST}:{@code FLASK_PORT}
 * serving {@code /} (index), {@code /feed}, {@code /poll}, {@code /access}, {@code /metrics},
 * {@code /health}, the web UI under {@code /ui/} and its live view {@code /live}, each behind an API key
 * when keys are configured except {@code /health} and the UI's files (docs/security.md); a link to Kafka
 * that sends fed requests and reads every answer
 * of {@code <prefix>.outbound_firehose} in a consumer group of its own; a link to Redis for
 * parked answers; and a heartbeat at {@code stats:rest:self:<host>:<uuid12>}. Neither Kafka nor
 * Redis has to be reachable at start: the gateway answers at once and says what is missing.
 */
public final class RestGateway implements Service {

    private static final Logger LOG = LoggerFactory.getLogger(RestGateway.class);
    private static final String NAME = "rest";
    private static final Duration MIN_IDLE_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration IDLE_MARGIN = Duration.ofSeconds(30);

    private final ServiceContext context;
    private final Settings settings;
    private final InetSocketAddress bindAddress;
    private final ServerLimits limits;
    /** How long a stopping gateway waits for the answers it owes. */
    private final Duration drain;
    private final Duration heartbeatPeriod;
    private final Duration heartbeatTtl;
    /** Whether anyone who reaches it from another host is served, without a key ({@code REST_ALLOW_ANONYMOUS}). */
    private final boolean anonymous;
    private final ApiKeys keys;
    /** The HTTPS the gateway serves, or empty for plain HTTP. */
    private final Optional<GatewayTls> tls;
    /** Looks for changes to the key files and TLS files, off the event loops that check each request's key. */
    private final Ticker files = new Ticker("rest-files");
    private final RedisLink redis;
    private final KafkaLink kafka;
    private final LiveView live;
    private final Dispatcher dispatcher;
    private final ExecutorService calls = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("rest-call-", 0).factory());

    private GatewayServer server;
    private Heartbeat heartbeat;
    private boolean closed;

    /**
     * @throws org.scrapycluster.common.settings.SettingsException when a setting cannot be used
     */
    public RestGateway(ServiceContext context) {
        this.context = context;
        this.settings = context.settings();
        int port = settings.getListenPort("FLASK_PORT");
        this.bindAddress = new InetSocketAddress(settings.getString("FLASK_HOST"), port);
        if (bindAddress.isUnresolved()) {
            throw settings.invalid("FLASK_HOST", "is " + settings.getString("FLASK_HOST") + ", which is not an address of this host");
        }
        JsonLimits jsonLimits = JsonLimits.from(settings);
        long maxBody = jsonLimits.maxDocumentBytes();
        if (maxBody > Integer.MAX_VALUE) {
            throw settings.invalid("JSON_MAX_DOCUMENT_BYTES", "is more than the gateway can take in one body (" + Integer.MAX_VALUE + ")");
        }
        this.heartbeatTtl = Duration.ofSeconds(atLeast("HEARTBEAT_TIMEOUT", 1));
        this.heartbeatPeriod = seconds("SLEEP_TIME");
        if (heartbeatPeriod.isZero() || heartbeatPeriod.compareTo(heartbeatTtl) >= 0) {
            throw settings.invalid("SLEEP_TIME", "must be more than 0 and less than HEARTBEAT_TIMEOUT");
        }
        Duration feedTimeout = new KafkaClients(settings).feedTimeout();
        Duration pollTimeout = positiveSeconds("KAFKA_CONSUMER_SLEEP_TIME");

        Duration wait = seconds("WAIT_FOR_RESPONSE_TIME");
        // Longer than the slowest /feed, which waits for Kafka's acknowledgement, then for the answer.
        Duration slowestFeed = feedTimeout.plus(wait).plus(IDLE_MARGIN);
        Duration idleTimeout = slowestFeed.compareTo(MIN_IDLE_TIMEOUT) > 0 ? slowestFeed : MIN_IDLE_TIMEOUT;
        this.drain = feedTimeout.plus(wait);
        Duration headerTimeout = positiveSeconds("REST_HEADER_TIMEOUT");
        Duration bodyTimeout = positiveSeconds("REST_BODY_TIMEOUT");
        Duration sendTimeout = positiveSeconds("REST_SEND_TIMEOUT");
        this.limits = new ServerLimits((int) maxBody, idleTimeout, headerTimeout, bodyTimeout, sendTimeout,
                (int) atLeast("REST_MAX_CONNECTIONS", 1),
                (int) atLeast("REST_MAX_PIPELINED_REQUESTS", 1));
        this.keys = ApiKeys.from(settings);
        this.tls = GatewayTls.from(settings, context.meters(), context.clock());
        this.anonymous = anonymousExposure();

        Json json = new Json(jsonLimits);
        // the Redis monitor's answers, however large Kafka lets them be: JSON_MAX_DOCUMENT_BYTES bounds request bodies
        Json answers = new Json(jsonLimits.anySize());
        Envelope envelope = new Envelope(json);
        JsonBodies bodies = new JsonBodies(json);
        Topics topics = Topics.from(settings);
        String group = "rest-" + context.node().hostname() + "-" + context.node().uuid12();

        this.redis = new RedisLink(RedisEndpoint.from(settings), context.meters(), this::startHeartbeat);
        ParkedAnswers parked = new ParkedAnswers(redis, Duration.ofSeconds(atLeast("POLL_RESULT_TTL", 0)), context.meters());
        PendingAnswers pending = new PendingAnswers();
        this.live = new LiveView(settings, redis::connection, json, context.clock());
        this.kafka = new KafkaLink(new KafkaLink.Config(new KafkaClients(settings), topics.outboundFirehose(), group,
                pollTimeout, feedTimeout, seconds("DAEMON_THREAD_JOIN_TIMEOUT")),
                new OutboundAnswers(answers, pending, parked, live.crawlEnds(), context.meters()),
                failure -> FatalExit.exit(LOG, "The REST gateway's Kafka link", failure,
                        "and the callers still waiting for an answer are let go as at any stop"));

        Router router = Router.builder()
                .open("/health")
                .open("/ui")
                .route("/", "index", AccessRule.READ_ONLY, new IndexEndpoint(envelope, kafka::readingAnswers, redis::connected,
                        context.node().uuid12(), context.clock()), HttpMethod.GET, HttpMethod.POST)
                .route("/access", "access", new AccessEndpoint(envelope), HttpMethod.GET)
                .route("/feed", "feed", new FeedAccess(json), new FeedEndpoint(bodies, FeedValidation.from(settings), envelope, kafka,
                        topics.incoming(), pending, wait, context.meters()), HttpMethod.POST)
                .route("/poll", "poll", AccessRule.READ_ONLY, new PollEndpoint(bodies, answers, envelope, parked), HttpMethod.POST)
                .route("/metrics", "metrics", call -> HttpAnswer.text(200, MetricsServer.PROMETHEUS_TEXT,
                        context.prometheus().scrape()), HttpMethod.GET)
                .route("/health", "health", call -> health(context.health().check(), call), HttpMethod.GET)
                .route("/health/live", "health_live", call -> health(context.health().checkLive(), call), HttpMethod.GET)
                .route("/health/ready", "health_ready", call -> health(context.health().checkReady(), call), HttpMethod.GET)
                .route("/live", "live", live.endpoint(), HttpMethod.GET)
                // relative, so that a proxy's /<prefix>/ui reaches /<prefix>/ui/ too (docs/rest.md)
                .route("/ui", "ui", call -> HttpAnswer.redirect("ui/"), HttpMethod.GET)
                .prefix(UiFiles.PREFIX, "ui", new UiFiles(settings), HttpMethod.GET)
                .build();
        this.dispatcher = new Dispatcher(router, keys, AllowedHosts.of(bindAddress.getAddress(), AllowedHosts.listed(settings, "REST_ALLOWED_HOSTS")),
                envelope, new HttpMetrics(context.meters()), settings.getBoolean("FLASK_LOGGING_ENABLED"));
    }

    /**
     * Refuses the settings a gateway could not be built or started with: its Kafka clients' settings are checked, and
     * one is built, which reads and checks every other setting and starts nothing (it listens, links and refreshes from
     * {@link #start}), and dropped.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting
     */
    public static void check(Settings settings) {
        KafkaClients.check(settings);
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new RestGateway(new ServiceContext(settings, meters, meters, new HealthRegistry(), NodeIdentity.create(), Clock.systemUTC()));
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Listens (failing at once when the address cannot be bound), then links to Redis and Kafka in the background. */
    @Override
    public synchronized void start() {
        if (server != null || closed) {
            throw new IllegalStateException("the REST gateway is already started or closed");
        }
        try {
            server = GatewayServer.start(bindAddress, limits, tls.orElse(null), dispatcher, calls, context.meters());
        } catch (Exception e) {
            // Netty rethrows the bind's own BindException, undeclared
            if (e instanceof BindException || e.getCause() instanceof BindException || e instanceof io.netty.channel.ChannelException) {
                throw settings.invalid("FLASK_PORT", "is " + bindAddress.getPort() + ", which cannot be bound on "
                        + bindAddress.getHostString() + " (" + e.getMessage() + "); choose another port, or 0 for any free one");
            }
            throw e;
        }
        if (anonymous) {
            String address = bindAddress.getAddress().getHostAddress();
            LOG.atWarn().addKeyValue("address", address).log("REST_ALLOW_ANONYMOUS is true: anyone who reaches " + address
                    + " may feed, stop and reconfigure crawls without a key");
        }
        if (keys.readsFiles()) {
            files.every(ApiKeys.FILE_CHECK_PERIOD, ApiKeys.FILE_CHECK_PERIOD, keys::refresh);
        }
        tls.ifPresent(https -> {
            https.logCertificate();
            files.every(GatewayTls.FILE_CHECK_PERIOD, GatewayTls.FILE_CHECK_PERIOD, https::refresh);
        });
        context.health().register("redis", redis::health);
        context.health().register("kafka", kafka::health);
        context.health().register("kafka-loop", HealthRegistry.Kind.LIVENESS, kafka::liveness);
        redis.start();
        kafka.start();
        live.start();
        LOG.atInfo().addKeyValue("address", server.address().toString())
                .log("REST gateway listening on " + where(server.address(), tls.isPresent()));
    }

    @Override
    public Optional<URI> userUrl() {
        GatewayServer running = server;
        return running == null ? Optional.empty() : Optional.of(userUrl(running.address(), tls.isPresent()));
    }

    /** The URL a user of this host opens to reach a gateway listening on {@code address}, serving HTTPS or not. */
    static URI userUrl(InetSocketAddress address, boolean https) {
        InetAddress host = address.getAddress();
        String name = host.isAnyLocalAddress() ? "127.0.0.1"
                : host instanceof Inet6Address ? "[" + host.getHostAddress() + "]" : host.getHostAddress();
        return URI.create((https ? "https://" : "http://") + name + ":" + address.getPort());
    }

    /** Where a gateway listening on {@code address} is reached: every address of the host, when it listens on all of them. */
    static String where(InetSocketAddress address, boolean https) {
        return address.getAddress().isAnyLocalAddress()
                ? "every address of this host, port " + address.getPort() + " (" + userUrl(address, https) + " from this host)"
                : userUrl(address, https).toString();
    }

    /**
     * Stops listening, lets the answers owed be written (for at most the slowest {@code /feed}'s time: Kafka's
     * acknowledgement, then the wait for the answer), then closes the connections, the links and the heartbeat.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (server != null && !server.close(drain)) {
            LOG.atWarn().addKeyValue("drain_seconds", drain.toSeconds())
                    .log("Closed the REST gateway's connections with answers still owed");
        }
        calls.shutdownNow();
        files.close();
        live.close();
        kafka.close();
        if (heartbeat != null) {
            heartbeat.close();
        }
        redis.close();
        LOG.info("Closed the REST gateway");
    }

    private synchronized void startHeartbeat(RedisConnection connection) {
        if (closed) {
            return;
        }
        heartbeat = new Heartbeat(connection, Keyspace.HEARTBEAT.fill("rest", context.node().toString()), heartbeatTtl, heartbeatPeriod, context.clock());
        heartbeat.start();
    }

    /**
     * Whether the gateway serves anyone who reaches it from another host: reachable from other hosts without keys or
     * client certificates, which must be meant ({@code REST_ALLOW_ANONYMOUS}); it is said in the log as it starts listening.
     *
     * @throws org.scrapycluster.common.settings.SettingsException when it is not meant
     */
    private boolean anonymousExposure() {
        InetAddress address = bindAddress.getAddress();
        if (keys.required() || address.isLoopbackAddress() || tls.map(GatewayTls::requiresClientCertificates).orElse(false)) {
            return false;
        }
        if (!settings.getBoolean("REST_ALLOW_ANONYMOUS")) {
            throw settings.invalid("FLASK_HOST", "is " + address.getHostAddress() + ", reachable from other hosts, and no API key"
                    + " is configured: set REST_API_KEYS (or REST_API_KEYS_FILE), require client certificates"
                    + " (REST_TLS_CLIENT_CA_FILE), bind 127.0.0.1,"
                    + " or set REST_ALLOW_ANONYMOUS: true to let anyone feed, stop and reconfigure crawls");
        }
        return true;
    }

    /**
     * {@code report}, open to every caller; its details (server addresses, consumer groups) only for a caller with a
     * valid key, or when the gateway needs none (the caller as the request's head check identified it).
     */
    private static HttpAnswer health(HealthReport report, HttpCall call) {
        HealthReport shown = call.caller().access() == Access.NONE ? report.withoutDetails() : report;
        return HttpAnswer.text(shown.httpStatus(), HttpAnswer.JSON, shown.toJson());
    }

    private Duration seconds(String name) {
        Duration value = settings.getSeconds(name);
        if (value.isNegative()) {
            throw settings.invalid(name, "cannot be negative");
        }
        return value;
    }

    /** A number of seconds more than 0. */
    private Duration positiveSeconds(String name) {
        Duration value = seconds(name);
        if (value.isZero()) {
            throw settings.invalid(name, "must be more than 0");
        }
        return value;
    }

    private long atLeast(String name, long minimum) {
        long value = settings.getLong(name);
        if (value < minimum) {
            throw settings.invalid(name, "must be at least " + minimum);
        }
        return value;
    }
}
