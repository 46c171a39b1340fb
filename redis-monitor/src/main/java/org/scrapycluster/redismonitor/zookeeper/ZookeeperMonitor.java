package org.scrapycluster.redismonitor.zookeeper;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.zookeeper.ConfigNodePath;
import org.scrapycluster.common.zookeeper.DomainConfigDocument;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException.Failure;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.redismonitor.job.Answer;
import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.PluginContext;
import org.scrapycluster.redismonitor.job.RejectedJobException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The zookeeper job (docs/compatibility.md §3.9), {@code zk:<action>:<domain>:<appid>} with the value
 * {@code {"domain","uuid"[,"hits","scale","window"]}}: applies {@code domain-update},
 * {@code domain-remove}, {@code blacklist-update} or {@code blacklist-remove} to the domain config
 * at {@code ZOOKEEPER_ASSIGN_PATH + ZOOKEEPER_ID} (a versioned read-modify-write, written
 * byte for byte as the original writes it) and answers
 * {@code {uuid, server_time, action, domain, appid}}, with {@code error} set to
 * {@code Unable to load Zookeeper config} or {@code Unable to store Zookeeper config} when
 * ZooKeeper failed, as the original. A request that cannot be applied ({@link DomainConfigEdit}, or a value that is
 * not a JSON object) is answered with its {@code error} too, where the original answered nothing.
 */
public final class ZookeeperMonitor implements JobPlugin {

    private static final Logger LOG = LoggerFactory.getLogger(ZookeeperMonitor.class);
    private static final Duration DEADLINE_MARGIN = Duration.ofSeconds(2);

    private final PluginContext context;
    private final Json json;
    private final ZooKeeperConfigStore store;
    private final Duration deadline;
    private final ExecutorService calls = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("redis-monitor-zookeeper").daemon().factory());

    /** The plugin on {@code ZOOKEEPER_HOSTS}, with the timeouts of {@link ZooKeeperConnection#to}. */
    public ZookeeperMonitor(PluginContext context) {
        this(context, ZooKeeperConnection.of(context.settings()));
    }

    /**
     * The plugin on {@code connection}, whose connection timeout (and 2 s more) is how long a job waits for ZooKeeper
     * before it is answered with the error.
     */
    public ZookeeperMonitor(PluginContext context, ZooKeeperConnection connection) {
        this.context = context;
        Settings settings = context.settings();
        this.json = new Json(JsonLimits.from(settings));
        this.store = ZooKeeperConfigStore.open(connection, ConfigNodePath.of(settings));
        store.sayWhenUnanswered();
        this.deadline = connection.connectionTimeout().plus(DEADLINE_MARGIN);
        context.health().register("zookeeper", () -> store.isConnected() ? Health.up() : Health.down("not connected to ZooKeeper"));
    }

    @Override
    public String name() {
        return "ZookeeperMonitor";
    }

    @Override
    public String pattern() {
        return Keyspace.ZOOKEEPER.glob();
    }

    @Override
    public List<Answer> handle(Job job) throws InterruptedException {
        List<String> parts = job.parts(4, "zk:<action>:<domain>:<appid>");
        String action = parts.get(1);
        String domain = parts.get(2);
        String appid = parts.get(3);
        JsonNode request = request(job);
        UnaryOperator<DomainConfigDocument> edit = DomainConfigEdit.read(action, domain, request);
        Map<String, Object> answer = skeleton(job, request.path("uuid").asText(""));
        LOG.atInfo().addKeyValue("action", action).addKeyValue("appid", appid).addKeyValue("uuid", answer.get("uuid"))
                .log("Received zookeeper request");
        try {
            update(edit);
        } catch (ZooKeeperConfigException e) {
            LOG.atError().addKeyValue("action", action).addKeyValue("domain", domain).log(e.getMessage());
            answer.put("error", e.failure().message());
        }
        return List.of(new Answer(appid, answer, "Sent zookeeper update to kafka"));
    }

    /**
     * Applies {@code edit} within the deadline. The client retries an operation for minutes while
     * ZooKeeper is away; a job must not hold its worker that long, so it is interrupted and
     * reported as the original reports a ZooKeeper error of the step under way: loading the config,
     * or storing it, a write that may have landed all the same (docs/redis-monitor.md); an edit given up writes nothing
     * afterwards ({@link EditStep}).
     */
    private void update(UnaryOperator<DomainConfigDocument> edit) throws ZooKeeperConfigException, InterruptedException {
        EditStep step = new EditStep();
        Future<DomainConfigDocument> call = calls.submit(() -> store.update(edit, step::enter));
        try {
            call.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ZooKeeperConfigException failure) {
                throw failure;
            }
            throw new ZooKeeperConfigException(step.current(), "the edit failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            Failure givenUp = step.giveUp();
            call.cancel(true);
            throw new ZooKeeperConfigException(givenUp, "ZooKeeper did not answer within " + deadline.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            step.giveUp();
            call.cancel(true);
            throw e;
        }
    }


    /** The zookeeper answer with the {@code error}; without uuid when the value is not readable. */
    @Override
    public Optional<Answer> errorAnswer(Job job, String error) {
        String uuid;
        try {
            uuid = json.readTree(job.value()).path("uuid").asText("");
        } catch (JsonInputException e) {
            uuid = "";
        }
        Map<String, Object> answer = skeleton(job, uuid);
        answer.put("error", error);
        return Optional.of(new Answer(job.parts().get(3), answer, "Sent zookeeper error to kafka"));
    }

    @Override
    public void close() {
        calls.shutdownNow();
        store.close();
    }

    private JsonNode request(Job job) {
        try {
            JsonNode request = json.readTree(job.value());
            if (!request.isObject()) {
                throw new RejectedJobException("The zookeeper request " + job.key() + " is not a JSON object");
            }
            return request;
        } catch (JsonInputException e) {
            throw new RejectedJobException("The zookeeper request " + job.key() + " is not JSON: " + e.getMessage());
        }
    }

    private Map<String, Object> skeleton(Job job, String uuid) {
        List<String> parts = job.parts();
        Map<String, Object> answer = new LinkedHashMap<>();
        if (!uuid.isEmpty()) {
            answer.put("uuid", uuid);
        }
        answer.put("server_time", context.serverTime());
        answer.put("action", parts.get(1));
        answer.put("domain", parts.get(2));
        answer.put("appid", parts.get(3));
        return answer;
    }
}
