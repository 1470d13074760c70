package dev.ratchet.browser.internal;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;

/**
 * {@code open_page} and {@code read_page}: the URL, title, the text of the named elements, the
 * service's revision when the page exposes one ({@code <meta name="ratchet-revision">}), and a
 * fingerprint over all of it. Evidence for observation only: no receipt is ever taken from a page.
 */
public final class PageReads {
  private PageReads() {}

  public static JsonObject read(
      Chromium browser, UrlRules rules, String kind, JsonObject args, Runnable discard) {
    try {
      WebDriver d = browser.driver();
      PageDriver.open(d, rules, BrowserActions.path(args));
      JsonObject.Builder texts = JsonObject.builder();
      if (BrowserActions.READ_PAGE.equals(kind)) {
        for (String id : BrowserActions.ids(args)) {
          List<WebElement> e = d.findElements(By.id(id));
          texts.put(id, e.isEmpty() ? "" : e.get(0).getText());
        }
      }
      List<WebElement> meta = d.findElements(By.cssSelector("meta[name='ratchet-revision']"));
      JsonObject page =
          JsonObject.builder()
              .put("url", d.getCurrentUrl())
              .put("title", d.getTitle())
              .put("elements", texts.build())
              .put(
                  "revision",
                  meta.isEmpty() ? "" : String.valueOf(meta.get(0).getDomAttribute("content")))
              .build();
      return page.with("fingerprint", new dev.ratchet.json.JsonString(Canonical.sha256Hex(page)));
    } catch (WebDriverException e) {
      discard.run();
      throw Chromium.unavailable("lost while reading a page; read again", e);
    }
  }
}
