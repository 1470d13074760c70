package dev.ratchet.browser.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.devtools.NetworkInterceptor;
import org.openqa.selenium.remote.http.Filter;
import org.openqa.selenium.remote.http.HttpResponse;

/**
 * Request interception through the Chrome DevTools Protocol's Fetch domain (D35 in place of D27's
 * no-network rule; ADR 0100 says why CDP and not BiDi): every request the browser makes is paused
 * before it is sent; one the {@link UrlRules} allow continues with the origin's credential headers
 * added (page scripts never see them), any other is answered locally with a 403 and recorded — it
 * never leaves the browser.
 */
public final class Interceptor implements AutoCloseable {
  private static final int MAX_RECORDED = 1000;
  private final List<String> refused = new CopyOnWriteArrayList<>();
  private final AtomicLong allowed = new AtomicLong();
  private final NetworkInterceptor cdp;

  private Interceptor(WebDriver driver, UrlRules rules) {
    Filter filter =
        next ->
            req -> {
              String url = req.getUri();
              if (!rules.allows(url)) {
                if (refused.size() < MAX_RECORDED) {
                  refused.add(url); // bounded: a hostile page may request without end
                }
                return new HttpResponse()
                    .setStatus(403)
                    .setHeader("Content-Type", "text/plain")
                    .setContent(
                        org.openqa.selenium.remote.http.Contents.utf8String(
                            "refused by the Ratchet browser adapter: not a task origin"));
              }
              rules.headers().forEach(req::setHeader);
              allowed.incrementAndGet();
              return next.execute(req);
            };
    this.cdp = new NetworkInterceptor(driver, filter);
  }

  static Interceptor install(WebDriver driver, UrlRules rules) {
    return new Interceptor(driver, rules);
  }

  /** The URLs refused so far (evidence for the caller; never sent). */
  public List<String> refused() {
    return List.copyOf(refused);
  }

  /** How many requests were let through. */
  public long allowedCount() {
    return allowed.get();
  }

  @Override
  public void close() {
    cdp.close();
  }
}
