package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.crawler.node.CrawlerFactory;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;
import org.scrapycluster.kafkamonitor.KafkaMonitorFactory;
import org.scrapycluster.redismonitor.RedisMonitorFactory;
import org.scrapycluster.rest.RestFactory;
import org.scrapycluster.rest.testing.HeadlessBrowser;

/**
 * The web UI in a real browser (Debian's headless chromium through chromedriver), against the whole
 * cluster with its REST gateway and a loopback test site: a crawl fed through the form shows up in
 * the crawls table with its pages counted, the response chart gains points, a stop confirmed in the
 * dialog is answered, an expiry set from the page ends a second crawl as expired, a domain throttle pushed through the form is in ZooKeeper as {@code zookeeper pull}
 * reads it and back in the domain table, and the browser logs no error. The gateway has API keys: the page
 * asks for one at the first 401 and keeps it for the tab; with a read key it shows the views and disables
 * every action. With {@code -Dui.screenshots=DIR} it also writes the screenshots of docs/rest.md into DIR.
 */
@ExtendWith(SharedStack.class)
class WebUiBrowserTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WRITE_KEY = "ui-test-write-key";
    private static final String READ_KEY = "ui-test-read-key";
    private static final SyntheticSite SITE = SyntheticSite.builder().domains(1).pagesPerDomain(40).linksPerPage(3).pageBytes(400)
            .build();

    @Test
    void feedWatchStopAndThrottleThroughThePage(EmbeddedStack stack) throws Exception {
        String appid = AcceptanceCluster.unique("ui");
        String crawlid = AcceptanceCluster.unique("c");
        String expiring = AcceptanceCluster.unique("e");
        try (HeadlessBrowser headless = HeadlessBrowser.start();
             TestOrigin origin = TestOrigin.start(SITE);
             AcceptanceCluster cluster = new AcceptanceCluster(stack).throttle(3, 1, true).set("FLASK_PORT", 0)
                     .set("REST_API_KEYS", WRITE_KEY).set("REST_READ_KEYS", READ_KEY).set("LIVE_REFRESH_SECONDS", 1).start(1, new KafkaMonitorFactory(), new RedisMonitorFactory(),
                             new CrawlerFactory(), new RestFactory())) {
            ChromeDriver browser = headless.driver();
            browser.get(cluster.userUrl("rest") + "/ui/");
            enterKey(browser, WRITE_KEY);
            Awaitility.await("the page knows the key may write").atMost(HeadlessBrowser.WAIT)
                    .until(() -> browser.findElement(By.id("access")).getText().equals("key: read and write"));
            awaitGatewayReadsKafka(cluster);

            feed(browser, origin, appid, crawlid);
            feed(browser, origin, appid, expiring);

            // a crawlid whose right-to-left override would make "rtl\u202Eevil" read "rtllive" shows the override
            cluster.send("url", origin.pageUrl(SITE.pages().getFirst()), "appid", appid, "crawlid", "rtl\u202Eevil", "maxdepth", 0);
            Awaitility.await("the override shown as \\u202E").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                    .until(() -> browser.findElement(By.id("crawls")).getText().contains("rtl\\u202Eevil"));

            By row = By.cssSelector("#crawl-rows tr[data-crawlid='" + crawlid + "']");
            Awaitility.await("the crawl's pages counted in the crawls table").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                    .until(() -> Long.parseLong(browser.findElement(row).findElements(By.tagName("td")).get(3).getText()) >= 2);
            Awaitility.await("the response chart gains points").atMost(HeadlessBrowser.WAIT)
                    .until(() -> Integer.parseInt(browser.findElement(By.id("chart-pages")).getDomAttribute("data-points")) > 0);
            assertEquals(2, browser.findElements(By.cssSelector("#chart-pages canvas, #chart-queues canvas")).size());
            Awaitility.await("the legend shows the newest rate with the pointer off the chart").atMost(HeadlessBrowser.WAIT)
                    .ignoreExceptions().until(() -> browser.findElement(By.cssSelector("#chart-pages .u-legend")).getText().contains("/s"));
            screenshot(browser, "ui-overview.png");

            click(browser, By.cssSelector("#crawl-rows tr[data-crawlid='" + crawlid + "'] button[data-action=stop]"));
            browser.findElement(By.id("confirm-ok")).click();
            String stopped = awaitAnswer(browser, "Stop of " + appid + " / " + crawlid + " (spider link): ");
            assertTrue(stopped.matches(".*Stopped; [0-9]+ requests purged"), stopped);
            Awaitility.await("the stopped crawl among the ended ones").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                    .until(() -> browser.findElement(By.id("completed-rows")).getText().contains(crawlid + " link stopped, "));

            click(browser, By.cssSelector("#crawl-rows tr[data-crawlid='" + expiring + "'] button[data-action=expire]"));
            assertEquals(origin.pageUrl(SITE.pages().getFirst()), browser.findElement(By.id("confirm-url")).getDomProperty("value"),
                    "the expire dialog offers the crawl's seed: a seen one carries the expiry too");
            browser.findElement(By.id("confirm-ok")).click();
            awaitAnswer(browser, "Expiry of " + appid + " / " + expiring + " (spider link) sent, for ");
            Awaitility.await("the expired crawl among the ended ones").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                    .until(() -> browser.findElement(By.id("completed-rows")).getText().contains(expiring + " link expired"));

            WebElement throttle = browser.findElement(By.id("throttle-form"));
            type(throttle.findElement(By.name("domain")), "example.com");
            type(throttle.findElement(By.name("hits")), "7");
            type(throttle.findElement(By.name("window")), "30");
            type(throttle.findElement(By.name("scale")), "0.5");
            throttle.findElement(By.cssSelector("button[value=domain-update]")).click();
            browser.findElement(By.id("confirm-ok")).click();
            awaitAnswer(browser, "Throttle of example.com: done");
            try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(ZooKeeperConnection.to(stack.zookeeperConnect()),
                    cluster.zookeeperNode())) {
                String pulled = store.readText();
                assertTrue(pulled.contains("example.com") && pulled.contains("hits: 7") && pulled.contains("window: 30")
                        && pulled.contains("scale: 0.5"), pulled);
            }
            Awaitility.await("the pushed throttle in the domain table").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                    .until(() -> browser.findElement(By.cssSelector("#domain-rows tr[data-domain='example.com']")).getText()
                            .contains("7 / 30 s × 0.5"));
            screenshot(browser, "ui-domains.png", "domains");

            darkAndPhoneScreenshots(browser);
            String running = AcceptanceCluster.unique("r");
            feed(browser, origin, appid, running);
            readKeyDisablesTheActions(browser, cluster, running);
            // the first call of a tab without a key is answered 401 by design, and /health is 503 while a service
            // of the cluster, just started on a busy machine, is not ready yet: the page shows both
            List<String> errors = headless.consoleErrors().stream()
                    .filter(message -> !HeadlessBrowser.ANSWERED_ON_PURPOSE.matcher(message).find())
                    .toList();
            assertEquals(List.of(), errors, "browser console errors");
        }
    }

    /**
     * Waits for the gateway's link to Kafka, as its open {@code /health} tells it: a feed refused with "Kafka is not
     * connected" is what the page rightly shows a gateway just started on a busy machine (ci155), and no crawl follows.
     */
    private static void awaitGatewayReadsKafka(AcceptanceCluster cluster) {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest health = HttpRequest.newBuilder(cluster.userUrl("rest").resolve("/health")).build();
        Awaitility.await("the gateway reaches Kafka").atMost(HeadlessBrowser.WAIT).ignoreExceptions().until(() -> {
            JsonNode checks = JSON.readTree(http.send(health, HttpResponse.BodyHandlers.ofString()).body()).path("checks");
            return "UP".equals((checks.has("rest.kafka") ? checks.get("rest.kafka") : checks.path("kafka")).path("status").asText());
        });
    }

    /** Answers the page's key dialog, which the gateway's first 401 opens. */
    private static void enterKey(ChromeDriver browser, String key) {
        Awaitility.await("the key dialog").atMost(HeadlessBrowser.WAIT)
                .until(() -> browser.findElement(By.id("key-dialog")).getDomAttribute("open") != null);
        type(browser.findElement(By.id("key-input")), key);
        browser.findElement(By.cssSelector("#key-dialog button[value=ok]")).click();
    }

    /** A new tab session with the read key: the views fill in, every action but info is disabled. */
    private static void readKeyDisablesTheActions(ChromeDriver browser, AcceptanceCluster cluster, String crawlid) {
        browser.executeScript("sessionStorage.clear()");
        browser.get(cluster.userUrl("rest") + "/ui/");
        enterKey(browser, READ_KEY);
        Awaitility.await("the page knows the key may only read").atMost(HeadlessBrowser.WAIT)
                .until(() -> browser.findElement(By.id("access")).getText().equals("key: read only (actions disabled)"));
        By row = By.cssSelector("#crawl-rows tr[data-crawlid='" + crawlid + "']");
        Awaitility.await("the crawls table with a read key").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                .until(() -> browser.findElement(row).isDisplayed());
        assertTrue(browser.findElements(By.cssSelector("button.write")).stream().noneMatch(WebElement::isEnabled),
                "the forms' buttons are disabled");
        assertTrue(browser.findElement(row).findElements(By.cssSelector("button[data-action=stop], button[data-action=expire]")).stream()
                .noneMatch(WebElement::isEnabled), "stop and expire are disabled");
        assertTrue(browser.findElement(row).findElement(By.cssSelector("button[data-action=info]")).isEnabled(), "info is a read");
    }

    /** Submits a crawl of the site's first page through the form. */
    private static void feed(ChromeDriver browser, TestOrigin origin, String appid, String crawlid) {
        WebElement form = browser.findElement(By.id("crawl-form"));
        type(form.findElement(By.name("url")), origin.pageUrl(SITE.pages().getFirst()));
        type(form.findElement(By.name("appid")), appid);
        type(form.findElement(By.name("crawlid")), crawlid);
        type(form.findElement(By.name("maxdepth")), "3");
        form.findElement(By.cssSelector("button[type=submit]")).click();
        awaitAnswer(browser, "Submitted crawl " + crawlid);
    }

    /** Clicks {@code button} once it is there: the tables are drawn anew at every refresh, so a row found may be gone. */
    private static void click(ChromeDriver browser, By button) {
        Awaitility.await("a click on " + button).atMost(HeadlessBrowser.WAIT).ignoreExceptions().until(() -> {
            browser.findElement(button).click();
            return true;
        });
    }

    private static void type(WebElement input, String text) {
        input.clear();
        input.sendKeys(text);
    }

    /** Waits for the newest line of the answer log to start with {@code start}, and returns it. */
    private static String awaitAnswer(ChromeDriver browser, String start) {
        By newest = By.cssSelector("#answer-log li:first-child .summary");
        Awaitility.await("an answer starting with '" + start + "'").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                .until(() -> browser.findElement(newest).getText().startsWith(start));
        return browser.findElement(newest).getText();
    }

    private static void darkAndPhoneScreenshots(ChromeDriver browser) {
        if (screenshots() == null) {
            return;
        }
        browser.executeCdpCommand("Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        Awaitility.await().atMost(HeadlessBrowser.WAIT).until(() -> Boolean.TRUE.equals(browser.executeScript(
                "return matchMedia('(prefers-color-scheme: dark)').matches")));
        screenshot(browser, "ui-dark.png");
        browser.manage().window().setSize(new Dimension(420, 1000));
        Awaitility.await("the charts fit the narrow window").atMost(HeadlessBrowser.WAIT).until(() -> Boolean.TRUE.equals(browser.executeScript(
                "return [...document.querySelectorAll('.chart canvas')].every(c => c.getBoundingClientRect().right <= innerWidth)")));
        screenshot(browser, "ui-phone.png");
    }

    private static Path screenshots() {
        String directory = System.getProperty("ui.screenshots");
        return directory == null || directory.isBlank() ? null : Path.of(directory);
    }

    /** Writes a screenshot of the page, or of the section {@code sectionId}, when screenshots are asked for. */
    private static void screenshot(ChromeDriver browser, String name, String... sectionId) {
        Path directory = screenshots();
        if (directory == null) {
            return;
        }
        try {
            Files.createDirectories(directory);
            byte[] png;
            if (sectionId.length == 0) {
                browser.executeScript("window.scrollTo(0, 0)");
                png = browser.getScreenshotAs(OutputType.BYTES);
            } else {
                WebElement section = browser.findElement(By.id(sectionId[0]));
                browser.executeScript("arguments[0].scrollIntoView({block: 'start'})", section);
                png = section.getScreenshotAs(OutputType.BYTES);
            }
            Files.write(directory.resolve(name), png);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the screenshot " + name, e);
        }
    }
}
