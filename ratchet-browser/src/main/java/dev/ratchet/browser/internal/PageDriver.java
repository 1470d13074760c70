package dev.ratchet.browser.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * What the adapter does on a page: open it (only inside the rules), find a form by id, check where
 * it posts before anything is typed, fill named fields, click its control and wait for the next
 * page. Elements are found by id or name, never by coordinates.
 */
public final class PageDriver {
  public static final List<String> KEY_FIELDS =
      List.of(
          "idempotency_key",
          "intent_digest",
          "fence_run",
          "fence_version",
          "approval_fingerprint",
          "approval_expires_at");

  private static final int POLL_MS = 20;

  private PageDriver() {}

  /**
   * Opens {@code path} on the origin; a page that ends elsewhere (a redirect) is refused. The tab
   * is first emptied ({@code about:blank}): a navigation the browser turns into a (refused)
   * download, or that never commits, then leaves a page outside the rules instead of the previous
   * page, whose evidence would pass for this one's.
   */
  public static void open(WebDriver d, UrlRules rules, String path) {
    String url = rules.url(path);
    if (!rules.allows(url)) {
      throw permission("page '" + path + "' is outside the task's URL prefixes");
    }
    d.get("about:blank");
    d.get(url);
    requireInside(d, rules);
  }

  /**
   * The page's current URL must be inside the rules (a redirect off-origin is refused), and so must
   * its document's own URL: Chromium's error page (a redirect to {@code file:}, a failed load)
   * keeps the requested URL in the address bar while its document is {@code chrome-error://}.
   */
  public static void requireInside(WebDriver d, UrlRules rules) {
    String now = d.getCurrentUrl();
    if (now == null || !rules.allows(now)) {
      throw permission("the browser left the task's URL prefixes (now at '" + now + "')");
    }
    Object doc = ((JavascriptExecutor) d).executeScript("return document.URL;");
    if (!(doc instanceof String u) || !rules.allows(u)) {
      throw permission(
          "the page at '" + now + "' did not load from the task's origin (document '" + doc + "')");
    }
  }

  /** The form with {@code id}, after checking it posts inside the rules. */
  public static WebElement form(WebDriver d, UrlRules rules, String id) {
    WebElement form;
    try {
      form = d.findElement(By.id(id));
    } catch (NoSuchElementException e) {
      throw RatchetException.contract("page: no form with id '" + id + "'");
    }
    if (!"form".equalsIgnoreCase(form.getTagName())) {
      throw RatchetException.contract("page: element '" + id + "' is not a form");
    }
    String action = form.getDomProperty("action");
    if (action == null || !rules.allows(action)) {
      throw permission(
          "form '"
              + id
              + "' posts to '"
              + action
              + "', outside the task's URL prefixes;"
              + " nothing was sent");
    }
    String method = form.getDomProperty("method");
    if (!"post".equalsIgnoreCase(method)) {
      throw RatchetException.contract("form '" + id + "': a write must be a POST form");
    }
    return form;
  }

  /** Whether the form has a field named {@code name}. */
  public static boolean hasField(WebElement form, String name) {
    return !form.findElements(By.name(name)).isEmpty();
  }

  /** Sets each named field's value; a field the form lacks is a contract error. */
  public static void fill(WebDriver d, WebElement form, Map<String, String> values) {
    for (Map.Entry<String, String> e : values.entrySet()) {
      List<WebElement> found = form.findElements(By.name(e.getKey()));
      if (found.size() != 1) {
        throw RatchetException.contract(
            "form: field '" + e.getKey() + "' is " + (found.isEmpty() ? "missing" : "ambiguous"));
      }
      ((JavascriptExecutor) d)
          .executeScript("arguments[0].value = arguments[1];", found.get(0), e.getValue());
    }
  }

  /**
   * Clicks the control with {@code controlId} inside the form and waits for the next page, polling
   * every 20 ms for about {@code timeout} (no clock needed).
   */
  public static void submit(
      WebDriver d, WebElement form, String controlId, java.time.Duration timeout) {
    WebElement control;
    try {
      control = form.findElement(By.id(controlId));
    } catch (NoSuchElementException e) {
      throw RatchetException.contract("form: no control with id '" + controlId + "'");
    }
    control.click();
    long polls = Math.max(1, timeout.toMillis() / POLL_MS);
    for (long i = 0; i < polls; i++) {
      try {
        form.isEnabled();
      } catch (StaleElementReferenceException e) {
        return; // the old page is gone: the answer has arrived
      }
      pause();
    }
    throw new RatchetException(
        ErrorCode.STORE_UNAVAILABLE, "page: no answer to the submitted form within " + timeout);
  }

  /** The {@code data-code} of the page's {@code #error}, or null when the page shows none. */
  public static String errorCode(WebDriver d) {
    List<WebElement> e = d.findElements(By.id("error"));
    return e.isEmpty() ? null : e.get(0).getDomAttribute("data-code");
  }

  private static void pause() {
    try {
      Thread.sleep(POLL_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RatchetException(ErrorCode.STORE_UNAVAILABLE, "page: interrupted");
    }
  }

  static RatchetException permission(String msg) {
    return new RatchetException(ErrorCode.PERMISSION, msg);
  }
}
