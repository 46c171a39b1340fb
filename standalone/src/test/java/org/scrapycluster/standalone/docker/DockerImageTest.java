package org.scrapycluster.standalone.docker;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ComposeContainer;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * The Docker image and the compose file, built and run for real. These need a Docker engine:
 * they carry the {@code docker} tag (run them with {@code ./mvnw verify -Pdocker}) and are
 * skipped where no engine answers.
 */
@Tag("docker")
@EnabledIf("dockerAnswers")
class DockerImageTest {

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();

    static boolean dockerAnswers() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    @Test
    void theImageRunsTheCommandLine() {
        ImageFromDockerfile image = new ImageFromDockerfile("scrapy-cluster-test", true)
                .withFileFromPath(".", REPOSITORY)
                .withDockerfilePath("docker/Dockerfile");
        try (GenericContainer<?> container = new GenericContainer<>(image)
                .withCommand("--version")
                .withStartupCheckStrategy(new OneShotStartupCheckStrategy().withTimeout(Duration.ofMinutes(2)))) {
            container.start();
            assertTrue(container.getLogs().contains("Scrapy Cluster for Java"), container.getLogs());
        }
    }

    @Test
    void composeStartsAClusterWhoseGatewayIsGreen() throws Exception {
        ComposeContainer compose = new ComposeContainer(REPOSITORY.resolve("docker-compose.yml").toFile())
                .withBuild(true)
                .withExposedService("rest", 5343, Wait.forHttp("/")
                        .forResponsePredicate(body -> body.contains("\"node_health\":\"GREEN\""))
                        .withStartupTimeout(Duration.ofMinutes(10)));
        compose.start();
        try {
            URI health = URI.create("http://" + compose.getServiceHost("rest", 5343) + ":" + compose.getServicePort("rest", 5343) + "/");
            HttpResponse<String> answer = HttpClient.newHttpClient()
                    .send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(answer.body().contains("\"kafka_connected\":true") && answer.body().contains("\"redis_connected\":true"),
                    answer.body());
        } finally {
            compose.stop();
        }
    }
}
