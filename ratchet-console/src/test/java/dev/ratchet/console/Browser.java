package dev.ratchet.console;

import java.io.File;
import java.time.Duration;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium from Debian's {@code chromium} and {@code chromium-driver} packages (.ci/run
 * installs them), with explicit binary and driver paths so Selenium Manager never downloads
 * anything ({@code SE_OFFLINE=true} as well).
 */
final class Browser {
  static final String CHROMIUM = "/usr/bin/chromium";
  static final String CHROMEDRIVER = "/usr/bin/chromedriver";

  private Browser() {}

  static ChromeDriver start(int width, int height) {
    System.setProperty("SE_OFFLINE", "true");
    ChromeOptions o = new ChromeOptions();
    o.setBinary(CHROMIUM);
    o.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-sync",
        "--disable-extensions",
        "--metrics-recording-only",
        "--no-first-run",
        "--no-default-browser-check",
        "--window-size=" + width + "," + height);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(CHROMEDRIVER))
            .usingAnyFreePort()
            .withTimeout(Duration.ofSeconds(60))
            .build();
    ChromeDriver d = new ChromeDriver(service, o);
    d.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
    return d;
  }
}
