package dev.ratchet.browser.internal;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.Fence;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;

/**
 * A browser write, in the order that keeps it at most once: the service is asked for the key first
 * (a receipt there is a replay or a conflict, and nothing is clicked); then the page is opened, the
 * form's target checked, the fields and key filled, the control clicked; then the receipt is read
 * from the service. A browser that dies on the way is discarded and the service asked again.
 */
public final class PageWrites {
  private final Supplier<Chromium> browser;
  private final Runnable discard;
  private final IdempotentHttpAdapter service;
  private final CrashSeam crash;
  private final java.time.Duration stepTimeout;

  /** Test seam: runs after the lookup and the filled form, just before the click. */
  private volatile Runnable beforeClick = () -> {};

  public PageWrites(
      Supplier<Chromium> browser,
      Runnable discard,
      IdempotentHttpAdapter service,
      CrashSeam crash,
      java.time.Duration stepTimeout) {
    this.stepTimeout = stepTimeout;
    this.browser = browser;
    this.discard = discard;
    this.service = service;
    this.crash = crash;
  }

  /**
   * Sets the hook that runs between the key lookup and the click (tests: a newer lease holder acts
   * while this click is in flight). Not a core crash point: nothing dies there.
   */
  public void beforeClick(Runnable hook) {
    this.beforeClick = Objects.requireNonNull(hook, "hook");
  }

  public AdapterOutcome receipted(
      UrlRules rules,
      BrowserActions.Write w,
      WriteIntent intent,
      String key,
      Fence fence,
      ApprovalBinding approval) {
    Optional<Receipt> prior = service.lookup(key);
    if (prior.isPresent()) {
      return prior.get().intentDigest().equals(intent.digest())
          ? AdapterOutcome.replayed(prior.get())
          : AdapterOutcome.conflict(prior.get());
    }
    Map<String, String> values = new LinkedHashMap<>(w.fields());
    values.put("idempotency_key", key);
    values.put("intent_digest", intent.digest());
    values.put("fence_run", fence.runId());
    values.put("fence_version", Long.toString(fence.leaseVersion()));
    values.put("approval_fingerprint", Objects.toString(approval.approvalFingerprint(), ""));
    values.put(
        "approval_expires_at",
        approval.approvalFingerprint() == null ? "" : Long.toString(approval.expiresAtMs()));
    WebDriver d;
    WebElement form;
    try {
      d = browser.get().driver();
      PageDriver.open(d, rules, w.path());
      form = PageDriver.form(d, rules, w.form().id());
      for (String f : PageDriver.KEY_FIELDS) {
        if (!PageDriver.hasField(form, f)) {
          throw RatchetException.contract(
              "form '"
                  + w.form().id()
                  + "' has no '"
                  + f
                  + "' field: its service cannot receipt"
                  + " this write under the runtime's key (declare the form unreceipted)");
        }
      }
      PageDriver.fill(d, form, values);
    } catch (WebDriverException e) {
      // Lost before the click: nothing was submitted, but the service is asked all the same.
      discard.run();
      return afterBrowserLoss(intent, key);
    }
    beforeClick.run();
    String error = null;
    RatchetException pageProblem = null;
    try {
      PageDriver.submit(d, form, w.form().submitControl(), stepTimeout);
      PageDriver.requireInside(d, rules);
      error = PageDriver.errorCode(d);
    } catch (WebDriverException e) {
      // The browser died or hung mid-step: dispose of it; the service alone says what happened.
      discard.run();
      return afterBrowserLoss(intent, key);
    } catch (RatchetException e) {
      // After the click the page's word counts for nothing until the service has been asked.
      discard.run();
      pageProblem = e;
    }
    Optional<Receipt> after = service.lookup(key);
    if (after.isPresent()) {
      requireBinds(after.get(), intent, fence, approval);
      crash.reached(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
      return AdapterOutcome.executed(after.get());
    }
    if (pageProblem != null) {
      throw pageProblem;
    }
    throw refusal(error);
  }

  private AdapterOutcome afterBrowserLoss(WriteIntent intent, String key) {
    Optional<Receipt> r = service.lookup(key);
    if (r.isPresent() && r.get().intentDigest().equals(intent.digest())) {
      crash.reached(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
      return AdapterOutcome.executed(r.get());
    }
    throw new RatchetException(
        ErrorCode.STORE_UNAVAILABLE,
        "browser: lost mid-write and the service holds no receipt under the key yet; the outcome"
            + " is unknown until the key is looked up again");
  }

  /**
   * A form whose service gives no receipt under our key (D23): the runtime has committed its
   * started mark; this clicks once and reports the service's state before and after as the local
   * receipt.
   */
  public AdapterOutcome unreceipted(
      UrlRules rules,
      BrowserActions.Write w,
      WriteIntent intent,
      String key,
      Fence fence,
      ApprovalBinding approval) {
    Observation before = service.observe();
    String error;
    try {
      WebDriver d = browser.get().driver();
      PageDriver.open(d, rules, w.path());
      WebElement form = PageDriver.form(d, rules, w.form().id());
      PageDriver.fill(d, form, w.fields());
      PageDriver.submit(d, form, w.form().submitControl(), stepTimeout);
      PageDriver.requireInside(d, rules);
      error = PageDriver.errorCode(d);
    } catch (WebDriverException e) {
      discard.run();
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE,
          "browser: lost during an unreceipted write; outcome unknown");
    }
    if (error != null) {
      throw refusal(error);
    }
    Observation after = service.observe();
    String id =
        Canonical.sha256Hex(
            JsonObject.builder().put("idempotency_key", key).put("kind", intent.kind()).build());
    return AdapterOutcome.executed(
        new Receipt(
            intent.namespace(),
            1,
            "page-" + id.substring(0, 24),
            key,
            intent.digest(),
            JsonObject.builder().put("form", w.form().id()).put("receipted", false).build(),
            before.revision(),
            after.revision(),
            before.stateFingerprint(),
            after.stateFingerprint(),
            0,
            fence.runId(),
            fence.leaseVersion(),
            approval.approvalFingerprint(),
            null));
  }

  private static void requireBinds(
      Receipt r, WriteIntent intent, Fence fence, ApprovalBinding approval) {
    if (!r.intentDigest().equals(intent.digest())
        || !r.fenceRunId().equals(fence.runId())
        || r.fenceLeaseVersion() != fence.leaseVersion()
        || !Objects.equals(r.approvalFingerprint(), approval.approvalFingerprint())) {
      throw RatchetException.contract(
          "service receipt: does not bind the intent, fence and approval the page sent");
    }
  }

  private static RatchetException refusal(String code) {
    if ("fenced".equals(code)) {
      return new RatchetException(ErrorCode.FENCED, "service refused the page write: fenced");
    }
    if ("approval_expired".equals(code)) {
      return new RatchetException(ErrorCode.APPROVAL, "service refused: the approval expired");
    }
    if (code != null) {
      return RatchetException.contract("service refused the page write: " + code);
    }
    return new RatchetException(
        ErrorCode.STORE_UNAVAILABLE,
        "browser: the page answered without an error and the service holds no receipt under the"
            + " key; outcome unknown");
  }
}
