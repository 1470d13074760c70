package dev.ratchet.browser.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.remote.Augmenter;
import org.openqa.selenium.remote.RemoteWebDriver;

/**
 * One disposable headless Chromium: Debian's chromium-driver started by this process inside the
 * {@link Sandbox} on a free loopback port (no Selenium Manager, no download), a WebDriver session
 * with a DevTools connection, and the {@link Interceptor} installed before the first page. {@link
 * #kill} SIGKILLs the whole sandbox; the adapter then starts a fresh one (D35: the browser is
 * disposable).
 */
public final class Chromium implements AutoCloseable {
  public static final String BINARY = "/usr/bin/chromium";
  public static final String DRIVER = "/usr/bin/chromedriver";

  /** Polls of 50 ms each for the driver to answer (about 30 s; no clock needed). */
  private static final int START_POLLS = 600;

  private final Process process;
  private final WebDriver driver;
  private final Interceptor interceptor;

  private Chromium(Process process, WebDriver driver, Interceptor interceptor) {
    this.process = process;
    this.driver = driver;
    this.interceptor = interceptor;
  }

  /**
   * Starts a browser whose requests {@code rules} decide; a page load, script or driver call that
   * takes longer than {@code stepTimeout} fails (a hung browser is then discarded by the caller).
   * The driver client gives up 2 s after that: chromium-driver itself waits on a stopped renderer.
   */
  public static Chromium start(UrlRules rules, Duration stepTimeout) {
    int port = freePort();
    List<String> argv =
        Sandbox.wrap(List.of(DRIVER, "--port=" + port, "--allowed-ips=127.0.0.1", "--silent"));
    Process p;
    try {
      p =
          new ProcessBuilder(argv)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
    } catch (IOException e) {
      throw unavailable("cannot start chromium-driver in its sandbox", e);
    }
    try {
      URI address = URI.create("http://127.0.0.1:" + port);
      awaitReady(p, address);
      WebDriver raw =
          RemoteWebDriver.builder()
              .oneOf(options())
              .config(
                  org.openqa.selenium.remote.http.ClientConfig.defaultConfig()
                      .baseUri(address)
                      .readTimeout(stepTimeout.plusSeconds(2)))
              .build();
      WebDriver driver = new Augmenter().augment(raw);
      driver.manage().timeouts().pageLoadTimeout(stepTimeout);
      driver.manage().timeouts().scriptTimeout(stepTimeout);
      Interceptor interceptor = Interceptor.install(driver, rules);
      return new Chromium(p, driver, interceptor);
    } catch (RuntimeException e) {
      killTree(p);
      throw e instanceof RatchetException r ? r : unavailable("cannot open a browser session", e);
    }
  }

  private static ChromeOptions options() {
    ChromeOptions o = new ChromeOptions();
    o.setBinary(BINARY);
    // Headless, no first-run or background traffic, a throwaway profile in the sandbox's tmpfs,
    // and no downloads: a page cannot leave files behind. No --no-sandbox: Chromium keeps its own.
    o.addArguments(
        "--headless=new",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-sync",
        "--no-first-run",
        "--no-default-browser-check",
        "--user-data-dir=/tmp/profile",
        "--window-size=1024,768");
    o.setExperimentalOption("prefs", Map.of("download_restrictions", 3));
    return o;
  }

  public WebDriver driver() {
    return driver;
  }

  public Interceptor interceptor() {
    return interceptor;
  }

  /** Whether the driver process (and so the sandbox) is still running. */
  public boolean alive() {
    return process.isAlive();
  }

  /** The host pids of the sandbox's processes: bubblewrap, the driver, Chromium's processes. */
  public List<Long> pids() {
    List<Long> out = new ArrayList<>();
    out.add(process.pid());
    process.descendants().forEach(h -> out.add(h.pid()));
    return out;
  }

  /** SIGKILL of every process of the sandbox, as a crash or an OOM kill would do. */
  public void kill() {
    killTree(process);
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } catch (RuntimeException e) {
      // A dead or hung browser: the kill below ends it either way.
    }
    killTree(process);
  }

  private static void killTree(Process p) {
    List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
    all.forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
    try {
      p.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void awaitReady(Process p, URI address) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    for (int i = 0; i < START_POLLS; i++) {
      if (!p.isAlive()) {
        throw unavailable("chromium-driver exited at start (exit " + p.exitValue() + ")", null);
      }
      try {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(address.resolve("/status"))
                    .timeout(Duration.ofSeconds(2))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw unavailable("interrupted while chromium-driver started", e);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw unavailable("interrupted while chromium-driver started", e);
      }
    }
    throw unavailable("chromium-driver did not answer within 30 s", null);
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw unavailable("no free loopback port for chromium-driver", e);
    }
  }

  static RatchetException unavailable(String why, Throwable cause) {
    return new RatchetException(ErrorCode.STORE_UNAVAILABLE, "browser: " + why, cause);
  }
}
