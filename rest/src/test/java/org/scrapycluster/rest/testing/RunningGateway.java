package org.scrapycluster.rest.testing;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.Counter;
import org.awaitility.Awaitility;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.ServiceHost;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.rest.gateway.RestGateway;

/** A gateway running in this JVM in a host of its own (its own node identity), with a client for it. */
public final class RunningGateway implements AutoCloseable {

    private final ServiceHost host;
    private final ServiceContext context;
    private final RestGateway gateway;
    private final GatewayClient client;
    private final GatewayClient indexClient;

    private RunningGateway(ServiceHost host, ServiceContext context, RestGateway gateway) {
        this.host = host;
        this.context = context;
        this.gateway = gateway;
        this.client = new GatewayClient(gateway.userUrl().orElseThrow());
        List<String> writeKeys = context.settings().getStringList("REST_API_KEYS");
        this.indexClient = writeKeys.isEmpty() ? client : client.withKey(writeKeys.get(0));
    }

    public static RunningGateway start(Settings settings) {
        ServiceHost host = ServiceHost.start(settings);
        try {
            ServiceContext context = host.context(settings);
            RestGateway gateway = new RestGateway(context);
            host.run(gateway);
            return new RunningGateway(host, context, gateway);
        } catch (RuntimeException e) {
            host.close();
            throw e;
        }
    }

    /** A client presenting no key. */
    public GatewayClient client() {
        return client;
    }

    public ServiceContext context() {
        return context;
    }

    /** This gateway's uuid12, as {@code my_id} says. */
    public String myId() {
        return context.node().uuid12();
    }

    /** The value of a counter of this gateway, 0 when it was never counted. */
    public double counter(String name, String... tags) {
        Counter counter = context.prometheus().find(name).tag("service", "rest").tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    /** Waits up to a minute for {@code /} to say GREEN: Kafka and Redis connected. */
    public RunningGateway awaitGreen() {
        Awaitility.await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(50))
                .until(() -> "GREEN".equals(index().path("node_health").asText()));
        return this;
    }

    /** What {@code /} answers, asked with the first of {@code REST_API_KEYS} when there is one. */
    public JsonNode index() {
        return indexClient.get("/").json();
    }

    @Override
    public void close() {
        host.close();
    }
}
