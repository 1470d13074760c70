package dev.ratchet.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What an operator does on the console's Keys page in a real browser (D30): generate a key there,
 * or import their PKCS#8 file once; the page then shows the public key as a PEM and its key id.
 */
final class BrowserKeys {
  /** The public key PEM and key id the page shows. */
  record Shown(String publicKeyPem, String keyId) {
    /** Writes the PEM as {@code dir/NAME.pub}, the file 'ratchet keys trust' enrolls. */
    Path writeAs(Path dir, String name) {
      try {
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve(name + ".pub"), publicKeyPem + "\n");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private BrowserKeys() {}

  static Shown generate(WebDriver browser, String base) {
    browser.get(base + "/keys");
    String before = keyId(browser);
    browser.findElement(By.id("generate")).click();
    return awaitKey(browser, before);
  }

  static Shown importPkcs8(WebDriver browser, String base, Path keyFile) {
    browser.get(base + "/keys");
    String before = keyId(browser);
    WebElement area = browser.findElement(By.id("pkcs8"));
    try {
      // Set as a value, not typed: the PEM's newlines are part of what is pasted.
      ((org.openqa.selenium.JavascriptExecutor) browser)
          .executeScript("arguments[0].value = arguments[1];", area, Files.readString(keyFile));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    browser.findElement(By.id("import")).click();
    return awaitKey(browser, before);
  }

  /** The key id shown once the page has looked for a key (empty when there is none). */
  private static String keyId(WebDriver browser) {
    new WebDriverWait(browser, Duration.ofSeconds(10))
        .until(b -> !b.findElement(By.id("key-status")).getText().startsWith("Looking"));
    return browser.findElement(By.id("key-id")).getText();
  }

  private static Shown awaitKey(WebDriver browser, String before) {
    new WebDriverWait(browser, Duration.ofSeconds(10))
        .until(
            b -> {
              String id = keyId(b);
              return !id.isEmpty() && !id.equals(before)
                  ? id
                  : (b.findElement(By.id("key-status")).getText().startsWith("Failed")
                      ? failed(b)
                      : null);
            });
    return new Shown(browser.findElement(By.id("public-key")).getText().strip(), keyId(browser));
  }

  private static String failed(WebDriver b) {
    throw new AssertionError(b.findElement(By.id("key-status")).getText());
  }
}
