package dev.jobqueue.it.dashboard;

import dev.jobqueue.it.ops.Http;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's headless Chromium, driven through its own chromedriver, signed in to the test server with HTTP Basic
 * as one of its users. Screenshots go to {@code target/dashboard-screenshots}.
 *
 * <p>On a machine without Chromium, a test that opens a browser is skipped, and the run logs one warning that
 * says how to install it. With {@code -D}{@value #REQUIRED} {@code =true}, as CI runs, a missing browser fails
 * the test instead, so that CI never skips them.
 */
final class Browser implements AutoCloseable {

    static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");

    /** The system property that makes a missing browser a failure rather than a skipped test. */
    static final String REQUIRED = "jobqueue.it.require-browser";

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private final ChromeDriver driver;

    Browser() {
        File chromium = new File(System.getProperty("chromium.binary", "/usr/bin/chromium"));
        File chromedriver = new File(System.getProperty("chromedriver.binary", "/usr/bin/chromedriver"));
        if (!chromium.canExecute() || !chromedriver.canExecute()) {
            String missing = "the dashboard's browser tests need " + chromium + " and " + chromedriver
                    + ": apt-get install chromium chromium-driver (as .ci/run does)";
            if (Boolean.getBoolean(REQUIRED)) {
                throw new IllegalStateException(missing + "; -D" + REQUIRED + "=true makes that a failure");
            }
            if (WARNED.compareAndSet(false, true)) {
                Logger.getLogger(Browser.class.getName()).warning("Skipping " + missing);
            }
            Assumptions.abort(missing);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic", "--window-size=1280,900");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability(ChromeOptions.LOGGING_PREFS, logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver)
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
        driver.executeCdpCommand("Network.enable", Map.of());
    }

    /** Signs every following request in as {@code user}. */
    Browser as(String user, String password) {
        String credentials = Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        // Leave the page, so that the next one loads afresh and asks who the user is; and drop the server's
        // session cookie from an earlier user, which would otherwise win over the header.
        driver.get("about:blank");
        driver.executeCdpCommand("Network.clearBrowserCookies", Map.of());
        driver.executeCdpCommand("Network.setExtraHTTPHeaders",
                Map.of("headers", Map.of("Authorization", "Basic " + credentials)));
        return this;
    }

    /** Opens the dashboard of the application at {@code context}, at {@code route} (such as {@code #/jobs}). */
    void open(String context, String route) {
        driver.get(Http.base() + "/" + context + "/jobqueue/" + route);
    }

    /** Waits up to ten seconds for an element that is displayed. */
    WebElement await(String css) {
        return poll(css, () -> driver.findElements(By.cssSelector(css)).stream().filter(WebElement::isDisplayed)
                .findFirst().orElse(null));
    }

    /** Waits up to ten seconds for {@code css} to match exactly {@code count} elements, and returns them. */
    List<WebElement> awaitCount(String css, int count) {
        return poll(count + " of " + css, () -> {
            List<WebElement> found = driver.findElements(By.cssSelector(css));
            return found.size() == count ? found : null;
        });
    }

    /** Asks {@code probe} every 100 ms until it answers non-null, for up to ten seconds. */
    private <T> T poll(String what, Supplier<T> probe) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            try {
                T found = probe.get();
                if (found != null) {
                    return found;
                }
            } catch (StaleElementReferenceException e) {
                // the page re-rendered between finding and reading: ask again
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within " + TIMEOUT + " on " + driver.getCurrentUrl()
                        + "\n" + driver.findElement(By.tagName("body")).getText());
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** The text of the first displayed element {@code css} matches, waiting up to ten seconds for one. */
    String text(String css) {
        return poll(css, () -> driver.findElements(By.cssSelector(css)).stream().filter(WebElement::isDisplayed)
                .findFirst().map(WebElement::getText).orElse(null));
    }

    /** Waits up to ten seconds for the first element {@code css} matches to have {@code attribute} = {@code value}. */
    void awaitFirst(String css, String attribute, String value) {
        poll(css + " with " + attribute + "=" + value + " first", () -> {
            List<WebElement> found = driver.findElements(By.cssSelector(css));
            return !found.isEmpty() && value.equals(found.get(0).getAttribute(attribute)) ? Boolean.TRUE : null;
        });
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    String pageSource() {
        return driver.getPageSource();
    }

    String currentUrl() {
        return driver.getCurrentUrl();
    }

    /** The browser console's entries since the last call. */
    List<LogEntry> console() {
        return driver.manage().logs().get(LogType.BROWSER).getAll();
    }

    /** Saves a screenshot of the page as {@code target/dashboard-screenshots/<name>.png}. */
    void screenshot(String name) throws Exception {
        Files.createDirectories(SCREENSHOTS);
        File shot = driver.getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() {
        driver.quit();
    }
}
