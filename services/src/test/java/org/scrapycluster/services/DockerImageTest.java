package org.scrapycluster.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;
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

    private static final String KEY = "docker-image-test-key";

    static boolean dockerAnswers() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    @Test
    void theImageRunsTheServicesCommandLineAsANonRootUser() {
        ImageFromDockerfile image = new ImageFromDockerfile("scrapy-cluster-test", true)
                .withFileFromPath(".", RepositoryFiles.root())
                .withDockerfilePath("docker/Dockerfile");
        try (GenericContainer<?> container = new GenericContainer<>(image)
                .withCommand("--help")
                .withStartupCheckStrategy(new OneShotStartupCheckStrategy().withTimeout(Duration.ofMinutes(2)))) {
            container.start();
            String help = container.getLogs();
            assertTrue(help.contains("  crawler ") && !help.contains("  standalone ") && !help.contains("  bench "), help);
            assertEquals("10001:10001", container.getContainerInfo().getConfig().getUser());
        }
    }

    @Test
    void composeStartsAClusterWhoseGatewayIsGreen(@TempDir Path dir) throws Exception {
        // The gateway's keys, as rest-keys.env would give them.
        File keys = Files.writeString(dir.resolve("keys.yml"),
                "services:\n  rest:\n    environment:\n      REST_API_KEYS: " + KEY + "\n").toFile();
        ComposeContainer compose = new ComposeContainer(RepositoryFiles.root().resolve("docker-compose.yml").toFile(), keys)
                .withBuild(true)
                .withExposedService("rest", 5343, Wait.forHttp("/").withHeader("Authorization", "Bearer " + KEY)
                        .forResponsePredicate(body -> body.contains("\"node_health\":\"GREEN\""))
                        .withStartupTimeout(Duration.ofMinutes(10)));
        compose.start();
        try {
            URI gateway = URI.create("http://" + compose.getServiceHost("rest", 5343) + ":" + compose.getServicePort("rest", 5343) + "/");
            HttpResponse<String> answer = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(gateway).header("Authorization", "Bearer " + KEY).build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(answer.body().contains("\"kafka_connected\":true") && answer.body().contains("\"redis_connected\":true"),
                    answer.body());
        } finally {
            compose.stop();
        }
    }
}
