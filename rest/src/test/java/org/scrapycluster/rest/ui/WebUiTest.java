package org.scrapycluster.rest.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import io.lettuce.core.api.sync.RedisCommands;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.awaitility.Awaitility;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.EmbeddedZooKeeper;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.AnsweredGateway;
import org.scrapycluster.rest.testing.GatewaySettings;
import org.scrapycluster.rest.testing.HeadlessBrowser;
import org.scrapycluster.rest.testing.PrefixProxy;
import org.scrapycluster.rest.testing.RunningGateway;

/**
 * The web UI in a real browser against one gateway: what it shows when parts of the cluster, or the
 * gateway, are away, what its forms send, and how it asks for a key again. The tests share one
 * browser (starting one takes seconds), each in a fresh tab.
 */
@ExtendWith(SharedStack.class)
class WebUiTest {

    /**
     * What the tests have the gateway answer, and the page shows ({@link HeadlessBrowser#ANSWERED_ON_PURPOSE}); and the
     * calls of a page whose test has closed its gateway, refused until the tab is closed.
     */
    private static final Pattern ANSWERED_ON_PURPOSE = Pattern.compile(HeadlessBrowser.ANSWERED_ON_PURPOSE.pattern()
            + "| - Failed to load resource: net::ERR_CONNECTION_REFUSED$");

    /** How often the pages of the tests read the live view and the gateway's health. */
    private static final Duration REFRESH = Duration.ofSeconds(1);

    private static HeadlessBrowser browser;

    @BeforeAll
    static void startBrowser() {
        browser = HeadlessBrowser.start();
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void freshPage() {
        browser.freshPage();
    }

    /** A script's error, a load that failed or a Content Security Policy violation fails the test that caused it. */
    @AfterEach
    void noConsoleErrors() {
        List<String> errors = browser.consoleErrors().stream().filter(error -> !ANSWERED_ON_PURPOSE.matcher(error).find()).toList();
        assertEquals(List.of(), errors, "errors in the browser's console");
    }

    /**
     * The page's own Content Security Policy is in force: an inline style and an image from elsewhere are refused, and
     * the console says so (what {@link #noConsoleErrors} looks for after every test).
     */
    @Test
    void thePolicyOfThePageRefusesInlineStylesAndLoadsFromElsewhere(EmbeddedStack stack) {
        try (RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack)).build())) {
            open(gateway);
            awaitLive();
            browser.driver().executeScript("const style = document.createElement('style');"
                    + " style.textContent = 'body { color: red; }'; document.head.append(style);"
                    + " const image = document.createElement('img'); image.src = 'http://127.0.0.2:9/image.png';"
                    + " document.body.append(image);");
            List<String> refused = new ArrayList<>();
            Awaitility.await("two violations in the console").atMost(HeadlessBrowser.WAIT).until(() -> {
                browser.consoleErrors().stream().filter(error -> error.contains("violates the following Content Security Policy"))
                        .forEach(refused::add);
                return refused.size() >= 2;
            });
            assertTrue(refused.stream().anyMatch(error -> error.contains("inline style") && error.contains("style-src 'self'")),
                    refused.toString());
            assertTrue(refused.stream().anyMatch(error -> error.contains("the image 'http://127.0.0.2:9/image.png'")
                    && error.contains("img-src data:")), refused.toString());
        }
    }

    @Test
    void theHealthChecksOfAGatewayWithoutRedis(EmbeddedStack stack) {
        try (RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack, FreePorts.pick())).build())) {
            open(gateway);
            // /health answers 503 with its checks: the page shows them, and the gateway it reached (YELLOW once
            // its Kafka is connected, which may take a health refresh or two)
            browser.awaitText("checks", "rest.redis DOWN");
            assertEquals("YELLOW", browser.awaitText("node-health", "YELLOW").getText());
            // nothing of the cluster was read: the tables of what Redis holds say so, rather than that there is nothing
            browser.awaitText("live-status", "nothing read yet");
            for (String rows : List.of("crawl-rows", "domain-rows", "node-rows")) {
                assertEquals("Not read from Redis yet.", browser.driver().findElement(By.id(rows)).getText(), rows);
            }
        }
    }

    /** Redis goes away once the cluster was read: the tables keep what was read, and the status says when that was. */
    @Test
    void aRedisThatGoesAwayLeavesTheStateLastReadWithItsTime(EmbeddedStack stack) {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("ui-redis-away"));
                RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack, redis.port())).build())) {
            open(gateway);
            awaitLive();
            redis.stop();
            String status = browser.awaitText("live-status", "(read at ").getText();
            assertTrue(status.startsWith("Redis: ") && status.contains("; showing the last state read (read at ") && status.endsWith(")"),
                    status);
            assertFalse(browser.driver().findElement(By.id("node-rows")).getText().contains("Not read from Redis yet."),
                    "the nodes read before are shown");
        }
    }

    /** A read of /live that gets no answer is given up after UI_READ_TIMEOUT_SECONDS (1 s here, rather than 10). */
    @Test
    void aGatewayThatStopsAnsweringIsSaid(EmbeddedStack stack) {
        try (RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack)).set("UI_READ_TIMEOUT_SECONDS", "1")
                .build())) {
            open(gateway);
            awaitLive();
            // from now on every call of /live is held by the browser and never answered, as by a gateway that hangs
            browser.driver().executeCdpCommand("Fetch.enable", Map.of("patterns", List.of(Map.of("urlPattern", "*/live"))));
            browser.awaitText("live-status", "cannot reach the gateway: /live did not answer within 1 s");
        }
    }

    /**
     * Reads of /live that fail in a row are tried less and less often: a refresh time after the first failure, then
     * twice, four times… as long, up to a minute.
     */
    @Test
    void readsThatFailInARowAreTriedLessAndLessOften(EmbeddedStack stack) throws Exception {
        try (RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack)).set("UI_READ_TIMEOUT_SECONDS", "0.2")
                .build())) {
            open(gateway);
            awaitLive();
            browser.driver().executeScript("window.liveReads = 0; const fetched = window.fetch;"
                    + " window.fetch = (url, options) => { if (String(url).endsWith('/live')) { window.liveReads++; }"
                    + " return fetched(url, options); };");
            browser.driver().executeCdpCommand("Fetch.enable", Map.of("patterns", List.of(Map.of("urlPattern", "*/live"))));
            browser.awaitText("live-status", "cannot reach the gateway");
            long first = ((Number) browser.driver().executeScript("return window.liveReads;")).longValue();
            Thread.sleep(REFRESH.multipliedBy(7).toMillis());
            long tries = ((Number) browser.driver().executeScript("return window.liveReads;")).longValue() - first;

            // 1.2 s, 2.2 s and 4.2 s after each failure: two tries in 7 s (six, a try every 1.2 s, before)
            assertTrue(tries <= 3, tries + " tries of /live in 7 s");
        }
    }

    /**
     * A tab in the background reads neither the live view nor the gateway's health, however long it stays there; shown
     * again, it reads both at once.
     */
    @Test
    void aTabInTheBackgroundReadsNothingUntilShownAgain(EmbeddedStack stack) throws Exception {
        try (RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack)).build())) {
            open(gateway);
            awaitLive();
            String page = browser.driver().getWindowHandle();
            browser.driver().switchTo().newWindow(WindowType.TAB);
            Thread.sleep(REFRESH.toMillis()); // a read in flight as the tab was hidden has its answer
            double before = pageReads(gateway);
            Thread.sleep(REFRESH.multipliedBy(4).toMillis());
            assertEquals(before, pageReads(gateway), "reads of a hidden tab");

            browser.driver().close();
            browser.driver().switchTo().window(page);
            Awaitility.await("a read of /live and one of /").atMost(HeadlessBrowser.WAIT)
                    .until(() -> gateway.counter("rest.requests", "endpoint", "live", "status", "200") > 0
                            && pageReads(gateway) >= before + 2);
        }
    }

    /** How many times the gateway answered a page's reads of /live, / and /health. */
    private static double pageReads(RunningGateway gateway) {
        return gateway.counter("rest.requests", "endpoint", "live", "status", "200")
                + gateway.counter("rest.requests", "endpoint", "index", "status", "200")
                + gateway.counter("rest.requests", "endpoint", "health", "status", "200");
    }

    /**
     * Until the gateway has read the domain config from ZooKeeper, the page says so rather than show an empty config,
     * and Edit throttle does not offer the default throttle as the domain's: it fills the domain only and says the
     * current throttle is unknown. Once read, Edit throttle fills the domain's throttle (here the default, as it has none).
     */
    @Test
    void aDomainConfigNotReadYetIsSaidAndNotOfferedAsTheDomainsThrottle(EmbeddedStack stack) {
        String crawl = "link:" + GatewaySettings.unique("ui") + ":queued";
        String domain = GatewaySettings.unique("queued") + ".example.com";
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(0, DataDirectory.temporary("ui-zk"));
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()))) {
            zookeeper.stop();
            try (RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack))
                    .set("ZOOKEEPER_HOSTS", zookeeper.connectString()).build())) {
                open(gateway);
                browser.awaitText("domain-config", "Domain config not read yet (ZooKeeper not connected");
                browser.awaitText("domain-rows", "the throttles of the domain config are not read yet");
                redis.sync().zadd("crawls:active", System.currentTimeMillis(), crawl);
                redis.sync().hset("crawl:" + crawl, Map.of("pending", "1", "pages", "0", "expires", "0", domain + "|1", "1"));
                By row = By.cssSelector("#domain-rows tr[data-domain='" + domain + "']");
                By edit = By.cssSelector("#domain-rows tr[data-domain='" + domain + "'] button");
                browser.awaitText("domain-rows", domain);
                assertTrue(browser.driver().findElement(row).getText().contains("not read yet"),
                        browser.driver().findElement(row).getText());
                WebElement form = browser.driver().findElement(By.id("throttle-form"));
                click(edit);
                assertEquals(domain, form.findElement(By.name("domain")).getDomProperty("value"));
                for (String field : List.of("hits", "window", "scale")) {
                    assertEquals("", form.findElement(By.name(field)).getDomProperty("value"), field + " is not offered");
                }
                assertTrue(browser.driver().findElement(By.id("throttle-note")).getText().contains("current throttle of " + domain
                        + " is unknown"), browser.driver().findElement(By.id("throttle-note")).getText());

                zookeeper.restart();
                Awaitility.await("the default throttle in the row").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                        .until(() -> browser.driver().findElement(row).getText().contains("10 / 60 s (default)"));
                assertEquals("", browser.driver().findElement(By.id("domain-config")).getText());
                click(edit);
                assertEquals("10", form.findElement(By.name("hits")).getDomProperty("value"));
                assertEquals("60", form.findElement(By.name("window")).getDomProperty("value"));
                assertEquals("1", form.findElement(By.name("scale")).getDomProperty("value"));
                assertEquals("", browser.driver().findElement(By.id("throttle-note")).getText());

                redis.sync().zrem("crawls:active", crawl);
                browser.awaitText("domain-rows", "No domain has work queued or a throttle of its own.");
            } finally {
                redis.sync().zrem("crawls:active", crawl);
                redis.sync().del("crawl:" + crawl);
            }
        }
    }

    @Test
    void aNegativeThrottlePausesADomain(EmbeddedStack stack) {
        try (AnsweredGateway answered = AnsweredGateway.start(stack, settings -> quick(settings).set("WAIT_FOR_RESPONSE_TIME", "0.2"))) {
            open(answered.gateway());
            WebElement form = browser.driver().findElement(By.id("throttle-form"));
            type(form.findElement(By.name("domain")), "paused.example.com");
            // docs/api.md: a negative hits pauses the domain (0 is the value refused)
            type(form.findElement(By.name("hits")), "-1");
            String asked = pushThrottle(form);
            assertTrue(asked.startsWith("Pause paused.example.com on every crawler (-1 hits at scale "), asked);
            String fed = new String(answered.responder().awaitRequest("domain", "paused.example.com"), StandardCharsets.UTF_8);
            assertTrue(fed.contains("\"action\":\"domain-update\"") && fed.contains("\"hits\":-1"), fed);
        }
    }

    /**
     * A throttle written in ZooKeeper by hand with a fractional window (applied as written) and a scale finer than
     * hundredths: Edit throttle fills the form with the window in whole seconds, as the zookeeper action takes it, and
     * says so; the push is not blocked by the inputs' own checks.
     */
    @Test
    void aFractionalWindowIsEditedInWholeSecondsAndSaidSo(EmbeddedStack stack) throws Exception {
        String root = "/" + GatewaySettings.unique("ui");
        String path = root + "/crawler/";
        try (CuratorFramework zookeeper = ZooKeeperConnection.to(stack.zookeeperConnect()).newClient()) {
            zookeeper.start();
            zookeeper.create().creatingParentsIfNeeded().forPath(path + "all",
                    ("domains:\n  half.example.com: {window: 0.5, hits: 3, scale: 0.125}\n  paused.example.com: {window: 60, hits: -1}\n"
                            + "blacklist: []\n").getBytes(StandardCharsets.UTF_8));
            try (AnsweredGateway answered = AnsweredGateway.start(stack, settings -> quick(settings).set("ZOOKEEPER_ASSIGN_PATH", path)
                    .set("WAIT_FOR_RESPONSE_TIME", "0.2"))) {
                open(answered.gateway());
                By edit = By.cssSelector("#domain-rows tr[data-domain='half.example.com'] button");
                Awaitility.await("the domain of the ZooKeeper config").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                        .until(() -> browser.driver().findElement(edit).getText().equals("Edit throttle"));
                // a paused domain has no limit to count hand-outs against
                List<String> paused = browser.driver().findElements(By.cssSelector("#domain-rows tr[data-domain='paused.example.com'] td"))
                        .stream().map(WebElement::getText).toList();
                assertEquals(List.of("0 / none", "paused"), paused.subList(3, 5), paused.toString());
                browser.driver().findElement(edit).sendKeys(Keys.ENTER);

                WebElement form = browser.driver().findElement(By.id("throttle-form"));
                assertEquals("1", form.findElement(By.name("window")).getDomProperty("value"));
                assertEquals("0.125", form.findElement(By.name("scale")).getDomProperty("value"));
                assertTrue(browser.driver().findElement(By.id("throttle-note")).getText().contains("window of 0.5 s"),
                        browser.driver().findElement(By.id("throttle-note")).getText());
                pushThrottle(form);
                String fed = new String(answered.responder().awaitRequest("domain", "half.example.com"), StandardCharsets.UTF_8);
                assertTrue(fed.contains("\"window\":1,") && fed.contains("\"scale\":0.125"), fed);
            } finally {
                zookeeper.delete().deletingChildrenIfNeeded().forPath(root);
            }
        }
    }

    @Test
    void aRevokedKeyIsAskedForWithoutAPileOfWaitingCalls(EmbeddedStack stack, @TempDir Path keys) throws Exception {
        Path keyFile = Files.writeString(keys.resolve("write-keys"), "first-key\n");
        // refreshes four times as often as the other tests', so that the refreshes missed below are missed sooner
        Duration refresh = REFRESH.dividedBy(4);
        try (RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack), refresh)
                .set("REST_API_KEYS_FILE", keyFile.toString()).build())) {
            open(gateway);
            enterKey("first-key");
            awaitLive();
            Files.writeString(keyFile, "the-second-key\n");
            awaitKeyDialog();
            // behind the dialog, the header and the status no longer claim the refused key's access
            assertTrue(browser.driver().findElement(By.id("key-refused")).isDisplayed(), "the dialog says the key was refused");
            assertEquals("no key", browser.driver().findElement(By.id("access")).getText());
            assertEquals("the gateway refused the key", browser.driver().findElement(By.id("live-status")).getText());
            // the dialog stays open for more than three refreshes of each loop, as for someone away from the tab
            Thread.sleep(refresh.multipliedBy(4));
            double accessBefore = gateway.counter("rest.requests", "endpoint", "access", "status", "200");
            enterKey("the-second-key");
            awaitLive();
            // time for the calls of missed refreshes, had they waited for the key, to come
            awaitRefreshes(4);
            // one /access for each of the two refresh loops that met the 401 (live view, health), not one per refresh missed
            double access = gateway.counter("rest.requests", "endpoint", "access", "status", "200") - accessBefore;
            assertTrue(access <= 2, access + " calls of /access after the key was entered");
        }
    }

    @Test
    void aCrawlNamedLikeABuiltInPropertyCanBeExpiredWithEnter(EmbeddedStack stack) {
        // a crawl this tab did not feed, whose crawlid every plain object has as a property, listed from its
        // accounting as the queue scripts write it (docs/architecture.md "Crawl accounting")
        String crawl = "link:" + GatewaySettings.unique("ui") + ":constructor";
        try (AnsweredGateway answered = AnsweredGateway.start(stack, WebUiTest::quick)) {
            answered.redis().sync().zadd("crawls:active", System.currentTimeMillis(), crawl);
            answered.redis().sync().hset("crawl:" + crawl, Map.of("pending", "1", "pages", "0", "expires", "0"));
            try {
                open(answered.gateway());
                click(By.cssSelector("#crawl-rows tr[data-crawlid=constructor] button[data-action=expire]"));
                awaitOpen("confirm-dialog");
                // Enter in the field confirms, as the Confirm button does
                type(browser.driver().findElement(By.id("confirm-url")), "https://example.com/expire-me" + Keys.ENTER);
                String fed = new String(answered.responder().awaitRequest("url", "https://example.com/expire-me"), StandardCharsets.UTF_8);
                assertTrue(fed.contains("\"crawlid\":\"constructor\"") && fed.contains("\"expires\":"), fed);
                // the crawl expired: its row, whose button has the focus back from the dialog, leaves at the next refresh
                answered.redis().sync().zrem("crawls:active", crawl);
                Awaitility.await("the focus kept in the crawls' table").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                        .until(() -> browser.driver().switchTo().activeElement().getAttribute("id"), "crawl-table"::equals);
            } finally {
                answered.redis().sync().zrem("crawls:active", crawl);
                answered.redis().sync().del("crawl:" + crawl);
            }
        }
    }

    /** Any spiderid is fed, as by the original; one no crawler runs is said to wait for one. */
    @Test
    void aCrawlOfASpiderNoCrawlerRunsIsSaidToWait(EmbeddedStack stack) {
        String heartbeat = "stats:crawler:ui-host:link:" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (AnsweredGateway answered = AnsweredGateway.start(stack, WebUiTest::quick)) {
            answered.redis().sync().setex(heartbeat, 60, Double.toString(System.currentTimeMillis() / 1000.0));
            try {
                open(answered.gateway());
                browser.awaitText("node-rows", "ui-host");
                WebElement form = browser.driver().findElement(By.id("crawl-form"));
                type(form.findElement(By.name("url")), "https://example.com/");
                type(form.findElement(By.name("spiderid")), "nosuchspider");
                form.findElement(By.cssSelector("button[type=submit]")).click();
                browser.awaitText("answer-log", "no crawler of spider nosuchspider is running");
            } finally {
                answered.redis().sync().del(heartbeat);
            }
        }
    }

    /**
     * The seed this tab fed for a crawl is offered when expiring that crawl only, not another app's crawl of the same
     * crawlid; the dialog names the crawl's spider too. A stop's dialog asks for no URL.
     */
    @Test
    void theSeedOfferedForAnExpiryIsOfThatVeryCrawl(EmbeddedStack stack) {
        String crawlid = GatewaySettings.unique("shared");
        String othersCrawl = "link:" + GatewaySettings.unique("other-app") + ":" + crawlid;
        try (AnsweredGateway answered = AnsweredGateway.start(stack, WebUiTest::quick)) {
            answered.redis().sync().zadd("crawls:active", System.currentTimeMillis(), othersCrawl);
            answered.redis().sync().hset("crawl:" + othersCrawl, Map.of("pending", "1", "pages", "0", "expires", "0"));
            try {
                open(answered.gateway());
                WebElement form = browser.driver().findElement(By.id("crawl-form"));
                type(form.findElement(By.name("url")), "https://example.com/my-seed");
                type(form.findElement(By.name("crawlid")), crawlid);
                form.findElement(By.cssSelector("button[type=submit]")).click();
                browser.awaitText("answer-log", "Submitted crawl " + crawlid);

                click(By.cssSelector("#crawl-rows tr[data-crawlid='" + crawlid + "'] button[data-action=expire]"));
                awaitOpen("confirm-dialog");
                assertEquals("https://", browser.driver().findElement(By.id("confirm-url")).getDomProperty("value"),
                        "the seed of the tab's own crawl (app webui) is not offered for another app's");
                assertTrue(browser.driver().findElement(By.id("confirm-title")).getText().endsWith("(spider link)?"),
                        browser.driver().findElement(By.id("confirm-title")).getText());
                browser.driver().findElement(By.id("confirm-cancel")).click();

                click(By.cssSelector("#crawl-rows tr[data-crawlid='" + crawlid + "'] button[data-action=stop]"));
                awaitOpen("confirm-dialog");
                assertFalse(browser.driver().findElement(By.id("confirm-url")).isDisplayed(), "a stop asks for no URL");
                browser.driver().findElement(By.id("confirm-cancel")).click();
            } finally {
                answered.redis().sync().zrem("crawls:active", othersCrawl);
                answered.redis().sync().del("crawl:" + othersCrawl);
            }
        }
    }

    /**
     * The tables are updated in place: a refresh that changes a row's numbers, or adds a row above it, leaves its
     * buttons (and the focus on one) and the text of its other cells (and a selection in it) as they were; the
     * status line, a live region, is not rewritten by a refresh that changes nothing it says; sorting and a
     * domain's throttle are reached with the keyboard.
     */
    @Test
    void aRefreshKeepsFocusAndSelectionAndTheTablesWorkFromTheKeyboard(EmbeddedStack stack) {
        String appid = GatewaySettings.unique("ui");
        String kept = "link:" + appid + ":kept";
        String newer = "link:" + appid + ":newer";
        try (AnsweredGateway answered = AnsweredGateway.start(stack, WebUiTest::quick)) {
            RedisCommands<String, String> redis = answered.redis().sync();
            long now = System.currentTimeMillis();
            redis.zadd("crawls:active", now, kept);
            redis.hset("crawl:" + kept, Map.of("pending", "1", "pages", "0", "expires", "0", "kept.example.com|1", "1"));
            try {
                open(answered.gateway());
                By row = By.cssSelector("#crawl-rows tr[data-crawlid=kept]");
                browser.awaitText("crawl-rows", "kept");
                awaitLive();
                WebElement stop = browser.driver().findElement(row).findElement(By.cssSelector("button[data-action=stop]"));
                browser.driver().executeScript("arguments[0].focus()", stop);
                browser.driver().executeScript("window.statusChanges = 0; new MutationObserver((changes) => window.statusChanges"
                        + " += changes.length).observe(document.getElementById('live-status'),"
                        + " { childList: true, characterData: true, subtree: true, attributes: true });");
                awaitRefreshes(2);
                assertEquals(Boolean.TRUE, browser.driver().executeScript("return document.activeElement === arguments[0]", stop),
                        "the Stop button focused before two refreshes has the focus after them");
                assertEquals(0L, browser.driver().executeScript("return window.statusChanges"),
                        "two refreshes, the state still live: the live region is left alone");

                WebElement crawlid = browser.driver().findElement(row).findElement(By.cssSelector("td.mono"));
                browser.driver().executeScript("const range = document.createRange(); range.selectNodeContents(arguments[0]);"
                        + " getSelection().removeAllRanges(); getSelection().addRange(range);", crawlid);
                assertEquals("kept", browser.driver().executeScript("return getSelection().toString()"));
                // the row's pages change, and a crawl active since comes first
                redis.hset("crawl:" + kept, "pages", "7");
                redis.zadd("crawls:active", now + 1000, newer);
                redis.hset("crawl:" + newer, Map.of("pending", "1", "pages", "0", "expires", "0"));
                Awaitility.await("the new crawl above, the new page count").atMost(HeadlessBrowser.WAIT).ignoreExceptions().until(() ->
                        browser.driver().findElements(By.cssSelector("#crawl-rows tr")).getFirst().getDomAttribute("data-crawlid").equals("newer")
                        && browser.driver().findElement(row).findElements(By.tagName("td")).get(3).getText().equals("7"));
                awaitRefreshes(1);
                assertEquals("kept", browser.driver().executeScript("return getSelection().toString()"), "the selection stays");
                assertEquals(Boolean.TRUE, browser.driver().executeScript("return document.activeElement === arguments[0]", stop),
                        "so does the focus");

                // a sortable header is a button in a th that says how the table is sorted
                WebElement pages = browser.driver().findElement(By.cssSelector("#crawl-table th[data-key=pages]"));
                pages.findElement(By.tagName("button")).sendKeys(Keys.ENTER);
                assertEquals("descending", pages.getDomAttribute("aria-sort"));
                pages.findElement(By.tagName("button")).sendKeys(Keys.ENTER);
                assertEquals("ascending", pages.getDomAttribute("aria-sort"));
                assertEquals(1, browser.driver().findElements(By.cssSelector("#crawl-table th[aria-sort]")).size());
                assertEquals(List.of("newer", "kept"), browser.driver().findElements(By.cssSelector("#crawl-rows tr")).stream()
                        .map(crawl -> crawl.getDomAttribute("data-crawlid")).filter(List.of("newer", "kept")::contains).toList(),
                        "0 pages, then 7");

                // a filter counts what it shows, not the cluster's crawls and backlog
                WebElement filter = browser.driver().findElement(By.id("crawl-filter"));
                filter.sendKeys(appid);
                Awaitility.await("the filtered count").atMost(HeadlessBrowser.WAIT).until(() -> {
                    String count = browser.driver().findElement(By.id("crawl-count")).getText();
                    return count.startsWith("(2 of ") && count.endsWith(" shown, 2 requests pending in these)");
                });
                filter.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);

                // a domain's throttle is edited with a button of its row
                By edit = By.cssSelector("#domain-rows tr[data-domain='kept.example.com'] button");
                Awaitility.await("the domain of the crawl").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                        .until(() -> browser.driver().findElement(edit).getText().equals("Edit throttle"));
                browser.driver().findElement(edit).sendKeys(Keys.ENTER);
                WebElement form = browser.driver().findElement(By.id("throttle-form"));
                assertEquals("kept.example.com", form.findElement(By.name("domain")).getDomProperty("value"));
                assertEquals(form.findElement(By.name("hits")), browser.driver().switchTo().activeElement(), "the form's hits next");
            } finally {
                redis.zrem("crawls:active", kept, newer);
                redis.del("crawl:" + kept, "crawl:" + newer);
            }
        }
    }

    @Test
    void aCancelledKeyDialogSaysAKeyIsNeededAndCanBeOpenedAgain(EmbeddedStack stack) {
        try (RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack)).set("REST_API_KEYS", "the-key").build())) {
            open(gateway);
            awaitKeyDialog();
            assertFalse(browser.driver().findElement(By.id("key-refused")).isDisplayed(), "no key was given: none was refused");
            browser.driver().findElement(By.id("key-cancel")).click();
            browser.awaitText("live-status", "an API key is needed");
            Awaitility.await("the focus on the button that opens the dialog again").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                    .until(() -> browser.driver().switchTo().activeElement().getAttribute("id"), "key-button"::equals);
            browser.awaitText("node-health", "key needed");
            // the tables say why they are empty, and the health checks, open to all, are shown
            for (String rows : List.of("crawl-rows", "completed-rows", "domain-rows", "node-rows")) {
                assertEquals("An API key is needed to read the cluster.", browser.driver().findElement(By.id(rows)).getText(), rows);
            }
            browser.awaitText("checks", "rest.redis UP");
            browser.driver().findElement(By.id("key-button")).click();
            enterKey("the-key");
            awaitLive();
            assertFalse(browser.driver().findElement(By.id("key-button")).isDisplayed());
        }
    }

    @Test
    void enterInTheKeyDialogUsesTheKey(EmbeddedStack stack) {
        try (RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack)).set("REST_API_KEYS", "the-key").build())) {
            open(gateway);
            awaitKeyDialog();
            // Enter submits the dialog's form with its first submit button
            browser.driver().findElement(By.id("key-input")).sendKeys("the-key", Keys.ENTER);
            browser.awaitText("access", "key: read and write");
        }
    }

    /** A tab given the read key takes the write key without being closed; the dialog keeps no key in its field. */
    @Test
    void aTabChangesItsKey(EmbeddedStack stack) {
        try (RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack)).set("REST_API_KEYS", "the-key")
                .set("REST_READ_KEYS", "a-read-key").build())) {
            open(gateway);
            enterKey("a-read-key");
            browser.awaitText("access", "key: read only");
            assertEquals("", browser.driver().findElement(By.id("key-input")).getDomProperty("value"));
            browser.driver().findElement(By.id("key-change")).click();
            browser.driver().findElement(By.id("key-cancel")).click();
            awaitLive();
            assertEquals("key: read only (actions disabled)", browser.driver().findElement(By.id("access")).getText(), "a cancel keeps it");

            browser.driver().findElement(By.id("key-change")).click();
            enterKey("the-key");
            browser.awaitText("access", "key: read and write");
        }
    }

    @Test
    void theFooterLinksNoReadThatNeedsAKey(EmbeddedStack stack) {
        try (RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack)).set("REST_API_KEYS", "the-key").build())) {
            open(gateway);
            awaitKeyDialog();
            browser.driver().findElement(By.id("key-cancel")).click();
            browser.awaitText("access", "no key");
            // a link cannot send the key: /live and /metrics would answer 401
            assertEquals(List.of("/health", "uPlot"), browser.driver().findElements(By.cssSelector("footer a")).stream()
                    .filter(WebElement::isDisplayed).map(WebElement::getText).toList());
        }
    }

    @Test
    void behindAProxyThatServesTheGatewayUnderAPathPrefix(EmbeddedStack stack) {
        try (RunningGateway gateway = RunningGateway.start(quick(GatewaySettings.forStack(stack)).build());
                PrefixProxy proxy = PrefixProxy.start("/scrapy", gateway.client().base())) {
            // /ui redirects to the page, which reads the gateway's endpoints next to it
            browser.driver().get(proxy.uri("/ui").toString());
            awaitLive();
            browser.awaitText("checks", "rest.kafka");
            // STATS_RESPONSE_CODES by default: no 3xx nor 5xx is counted, and the page says so rather than chart zeros
            browser.awaitText("response-codes", "Counted status codes: 200, 403, 404, 504. Not counted, shown as —: 3xx, 5xx");
        }
    }

    /**
     * {@code settings} with the page reading the live view and the gateway's health every {@link #REFRESH}, rather than
     * every 3 s and 5 s, so that what a test waits for the page to show comes sooner.
     */
    private static GatewaySettings quick(GatewaySettings settings) {
        return quick(settings, REFRESH);
    }

    /** {@code settings} with the page reading the live view and the gateway's health every {@code refresh}. */
    private static GatewaySettings quick(GatewaySettings settings, Duration refresh) {
        String seconds = Double.toString(refresh.toMillis() / 1000.0);
        return settings.set("LIVE_REFRESH_SECONDS", seconds).set("UI_HEALTH_REFRESH_SECONDS", seconds);
    }

    private static void open(RunningGateway gateway) {
        browser.driver().get(gateway.client().base().resolve("/ui/").toString());
    }

    /** Waits until the page has read {@code count} more snapshots of the live view. */
    private static void awaitRefreshes(int count) {
        String[] last = {refreshMarker()};
        int[] seen = {0};
        Awaitility.await(count + " refreshes").atMost(HeadlessBrowser.WAIT).until(() -> {
            String marker = refreshMarker();
            if (!marker.equals(last[0])) {
                last[0] = marker;
                seen[0]++;
            }
            return seen[0] >= count;
        });
    }

    /** What changes at every refresh of the page: the time of the snapshot it shows, to the millisecond. */
    private static String refreshMarker() {
        return String.valueOf(browser.driver().findElement(By.id("live-time")).getDomAttribute("datetime"));
    }

    /** Waits until the page reads the live view without an error. */
    private static void awaitLive() {
        Awaitility.await("#live-status says live").atMost(HeadlessBrowser.WAIT).ignoreExceptions()
                .until(() -> browser.driver().findElement(By.id("live-status")).getText().equals("live"));
    }

    /** Clicks {@code button} once it is there: a row is there only once the page has read it. */
    private static void click(By button) {
        Awaitility.await("a click on " + button).atMost(HeadlessBrowser.WAIT).ignoreExceptions().until(() -> {
            browser.driver().findElement(button).click();
            return true;
        });
    }

    private static void enterKey(String key) {
        awaitKeyDialog();
        type(browser.driver().findElement(By.id("key-input")), key);
        browser.driver().findElement(By.cssSelector("#key-dialog button[value=ok]")).click();
    }

    private static void awaitKeyDialog() {
        awaitOpen("key-dialog");
    }

    private static void awaitOpen(String dialog) {
        Awaitility.await("#" + dialog + " open").atMost(HeadlessBrowser.WAIT)
                .until(() -> browser.driver().findElement(By.id(dialog)).getDomAttribute("open") != null);
    }

    /** Pushes the throttle form's domain-update, confirming it. */
    /** Pushes the form's throttle, confirmed; returns what the confirmation asked. */
    private static String pushThrottle(WebElement form) {
        form.findElement(By.cssSelector("button[value=domain-update]")).click();
        Awaitility.await("the confirmation").atMost(HeadlessBrowser.WAIT)
                .until(() -> browser.driver().findElement(By.id("confirm-dialog")).getDomAttribute("open") != null);
        String asked = browser.driver().findElement(By.id("confirm-text")).getText();
        browser.driver().findElement(By.id("confirm-ok")).click();
        return asked;
    }

    private static void type(WebElement input, String text) {
        input.clear();
        input.sendKeys(text);
    }
}
