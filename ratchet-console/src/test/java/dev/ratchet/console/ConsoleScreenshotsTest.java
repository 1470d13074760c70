package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Regenerates the screenshots under docs/console/ from the current code (docs/console.md):
 *
 * <pre>
 * mvn -B -pl ratchet-console -am test -Dtest=ConsoleScreenshotsTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dratchet.screenshots=$PWD/docs/console
 * </pre>
 *
 * Skipped unless {@code ratchet.screenshots} names the directory to write.
 */
@EnabledIfSystemProperty(named = "ratchet.screenshots", matches = ".+")
class ConsoleScreenshotsTest {
  @TempDir Path dir;

  @Test
  void regenerateTheScreenshotsOfTheMainPages() throws Exception {
    Path out = Path.of(System.getProperty("ratchet.screenshots"));
    Files.createDirectories(out);
    try (ConsoleFixture f = new ConsoleFixture(dir)) {
      ChromeDriver browser = Browser.start(1280, 1100);
      try {
        browser.get(f.server.url());
        BrowserKeys.importPkcs8(browser, f.base(), f.home.resolve("identities/approver/alice.key"));
        shot(browser, out, "keys.png");
        browser.get(f.base() + "/");
        shot(browser, out, "runs.png");
        browser.get(f.base() + "/runs/" + ConsoleFixture.APPROVE);
        shot(browser, out, "run-waiting-for-approval.png");
        browser.findElement(By.id("approve")).click();
        shot(browser, out, "approve-preview.png");
        browser.findElement(By.id("sign")).click();
        f.worker(ConsoleFixture.APPROVE);
        browser.navigate().refresh();
        shot(browser, out, "run-completed.png");
        browser.get(f.base() + "/review");
        shot(browser, out, "review-queue.png");
      } finally {
        browser.quit();
      }
    }
    assertThat(out.resolve("review-queue.png")).exists();
  }

  private static void shot(ChromeDriver browser, Path out, String name) throws Exception {
    // The whole page, not only the window: size the window to the document first.
    long height = (Long) browser.executeScript("return document.documentElement.scrollHeight;");
    browser
        .manage()
        .window()
        .setSize(new org.openqa.selenium.Dimension(1280, (int) Math.min(height + 20, 4000)));
    Path tmp = browser.getScreenshotAs(OutputType.FILE).toPath();
    Files.copy(tmp, out.resolve(name), StandardCopyOption.REPLACE_EXISTING);
  }
}
