package org.scrapycluster.rest.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.regex.Pattern;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's chromium, headless, driven through chromedriver, for the web UI's tests; the tests that
 * use it are skipped where the two are not installed. A class of tests may share one, with a
 * {@link #freshPage()} for each test.
 */
public final class HeadlessBrowser implements AutoCloseable {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    /** How long a page may take to show what a test waits for. */
    public static final Duration WAIT = Duration.ofSeconds(60);
    /**
     * The console's line for a load the gateway answers on purpose, and the page shows: 401 to a call without a key
     * (which asks the tab for one), 503 from a /health that finds a check down (the answer still has its checks).
     */
    public static final Pattern ANSWERED_ON_PURPOSE = Pattern.compile(
            " - Failed to load resource: the server responded with a status of (401 \\(Unauthorized\\)|503 \\(Service Unavailable\\))$");

    private final ChromeDriver driver;

    private HeadlessBrowser(ChromeDriver driver) {
        this.driver = driver;
    }

    /** Starts a browser with a profile of its own. */
    public static HeadlessBrowser start() {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "the browser tests need Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)");
        Path profile;
        try {
            profile = Files.createTempDirectory("chromium-profile");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
                "--window-size=1400,1000");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability(ChromeOptions.LOGGING_PREFS, logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        return new HeadlessBrowser(new ChromeDriver(service, options));
    }

    /**
     * Goes on in a new tab, closing the others: a page of its own, with an empty {@code sessionStorage}
     * and none of the DevTools settings (such as held requests) a test made in another tab, nor what the
     * others logged ({@link #consoleErrors()}: a page whose gateway was closed fails to reach it until its tab is).
     */
    public void freshPage() {
        String fresh = driver.switchTo().newWindow(WindowType.TAB).getWindowHandle();
        for (String other : driver.getWindowHandles()) {
            if (!other.equals(fresh)) {
                driver.switchTo().window(other).close();
            }
        }
        driver.switchTo().window(fresh);
        consoleErrors();
    }

    public ChromeDriver driver() {
        return driver;
    }

    /**
     * What the browser's console logged as errors since the last call: a script's uncaught exception, a load that
     * failed, a load or a style the page's Content Security Policy refused.
     */
    public List<String> consoleErrors() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::getMessage)
                .toList();
    }

    /** Waits until the element {@code id} shows {@code text}, and returns it. */
    public WebElement awaitText(String id, String text) {
        Awaitility.await("#" + id + " shows '" + text + "'").atMost(WAIT).ignoreExceptions()
                .until(() -> driver.findElement(By.id(id)).getText().contains(text));
        return driver.findElement(By.id(id));
    }

    @Override
    public void close() {
        driver.quit();
    }
}
