package dev.ratchet.browser;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.Verification;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.adapters.HttpAction;
import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.browser.internal.BrowserActions;
import dev.ratchet.browser.internal.Chromium;
import dev.ratchet.browser.internal.PageReads;
import dev.ratchet.browser.internal.PageWrites;
import dev.ratchet.browser.internal.UrlRules;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.Text;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.Fence;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An {@link EnvironmentAdapter} that acts through web pages in headless Chromium (SPEC D35,
 * docs/browser.md). The service behind the pages is the authority: it stores one receipt per key
 * and answers {@code GET /v1/receipts/{key}} and {@code GET /v1/state} (the idempotent HTTP
 * protocol), so {@link #observe} and {@link #lookup} ask the service, never the page. A write fills
 * the runtime's key, intent digest, fence and approval into the form's hidden fields, clicks, and
 * reads the receipt back from the service; the page after the click is evidence only.
 *
 * <p>The browser is disposable: one that dies or hangs mid-step is killed and a fresh one started
 * on the next call; a write interrupted that way is answered from the service's receipt if there is
 * one, else with {@code STORE_UNAVAILABLE} (outcome unknown: the runtime looks the key up before
 * anything else and never clicks blindly).
 */
public final class BrowserAdapter implements EnvironmentAdapter, AutoCloseable {
  public static final String NAMESPACE = "browser";

  private final UrlRules rules;
  private final Map<String, PageForm> forms;
  private final IdempotentHttpAdapter service;
  private final List<ActionSpec> specs;
  private final PageWrites writes;
  private final Duration stepTimeout;
  private Chromium browser;

  private BrowserAdapter(Builder b) {
    this.rules =
        new UrlRules(b.origin, b.prefixes, Map.of("Authorization", "Bearer " + b.clientSecret));
    this.forms = Map.copyOf(b.forms);
    this.service =
        IdempotentHttpAdapter.builder(b.origin, NAMESPACE)
            .actions(b.verifications)
            .clientSecret(b.clientSecret)
            .build();
    List<ActionSpec> all = new ArrayList<>(BrowserActions.specs(forms, b.prefixes));
    b.verifications.forEach(v -> all.add(v.spec()));
    this.specs = List.copyOf(all);
    this.stepTimeout = b.stepTimeout;
    this.writes =
        new PageWrites(this::browser, this::discardBrowser, service, b.crash, b.stepTimeout);
  }

  public static Builder builder(URI origin) {
    return new Builder(origin);
  }

  @Override
  public String namespace() {
    return NAMESPACE;
  }

  @Override
  public int adapterVersion() {
    return 1;
  }

  @Override
  public List<ActionSpec> actionSpecs() {
    return specs;
  }

  /** The service's state, never the page's: the page is evidence for observation only. */
  @Override
  public Observation observe() {
    return service.observe();
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String idempotencyKey, Fence fence, ApprovalBinding approval) {
    if (!NAMESPACE.equals(intent.namespace())) {
      throw RatchetException.contract(
          "intent.namespace: '" + intent.namespace() + "' is not '" + NAMESPACE + "'");
    }
    Text.require("idempotency_key", idempotencyKey, Receipt.MAX_KEY_LENGTH);
    ActionSpec spec = spec(intent.kind(), ActionClass.WRITE);
    spec.validateArguments(intent.arguments(), "intent.arguments");
    boolean receipted = !BrowserActions.FILL_AND_SUBMIT_UNRECEIPTED.equals(intent.kind());
    BrowserActions.Write w =
        BrowserActions.parseWrite(
            intent.arguments(),
            "intent.arguments",
            forms,
            receipted,
            !BrowserActions.CLICK.equals(intent.kind()));
    synchronized (this) {
      return receipted
          ? writes.receipted(rules, w, intent, idempotencyKey, fence, approval)
          : writes.unreceipted(rules, w, intent, idempotencyKey, fence, approval);
    }
  }

  /** Test seam (this package only): {@code hook} runs between the key lookup and the click. */
  void beforeClick(Runnable hook) {
    writes.beforeClick(hook);
  }

  /** The service's receipt under the key (never the page's word). */
  @Override
  public Optional<Receipt> lookup(String idempotencyKey) {
    return service.lookup(idempotencyKey);
  }

  @Override
  public JsonObject read(String kind, JsonObject arguments, Fence fence) {
    ActionSpec spec = spec(kind, ActionClass.READ);
    spec.validateArguments(arguments, "action.arguments");
    synchronized (this) {
      return PageReads.read(browser(), rules, kind, arguments, this::discardBrowser);
    }
  }

  /** Verifications ask the service (its revision and fingerprint bind the answer). */
  @Override
  public Verification verify(String kind, JsonObject arguments, JsonObject verifier, Fence fence) {
    spec(kind, ActionClass.VERIFY);
    return service.verify(kind, arguments, verifier, fence);
  }

  private ActionSpec spec(String kind, ActionClass cls) {
    for (ActionSpec s : specs) {
      if (s.kind().equals(kind) && s.actionClass() == cls) {
        return s;
      }
    }
    throw RatchetException.contract(
        "action.kind: '" + kind + "' is not a " + cls.name().toLowerCase() + " of " + NAMESPACE);
  }

  /** The live browser, started (or restarted after a death) on demand. */
  private synchronized Chromium browser() {
    if (browser == null || !browser.alive()) {
      discardBrowser();
      browser = Chromium.start(rules, stepTimeout);
    }
    return browser;
  }

  /**
   * Kills a browser that failed mid-step with SIGKILL, without asking it to quit: a hung browser
   * would not answer, and nothing it holds is worth keeping (its profile is a tmpfs).
   */
  private synchronized void discardBrowser() {
    if (browser != null) {
      browser.kill();
      browser = null;
    }
  }

  @Override
  public synchronized void close() {
    if (browser != null) {
      browser.close();
      browser = null;
    }
  }

  /** Configures an adapter: the service's origin, URL prefixes, forms, credential. */
  public static final class Builder {
    private final URI origin;
    private final List<String> prefixes = new ArrayList<>();
    private final Map<String, PageForm> forms = new LinkedHashMap<>();
    private final List<HttpAction> verifications = new ArrayList<>();
    private String clientSecret;
    private CrashSeam crash = CrashSeam.NONE;
    private Duration stepTimeout = Duration.ofSeconds(20);

    private Builder(URI origin) {
      this.origin = Objects.requireNonNull(origin, "origin");
    }

    /** A path prefix on the origin the browser may load and post to, such as {@code /web/}. */
    public Builder pathPrefix(String prefix) {
      prefixes.add(prefix);
      return this;
    }

    public Builder form(PageForm form) {
      forms.put(form.id(), form);
      return this;
    }

    /** A VERIFY kind answered by the service ({@link IdempotentHttpAdapter#verify}). */
    public Builder verification(HttpAction action) {
      if (action.spec().actionClass() != ActionClass.VERIFY) {
        throw new IllegalArgumentException(action.kind() + ": not a verification");
      }
      verifications.add(action);
      return this;
    }

    /** The service's client secret: sent to the origin only, added by request interception. */
    public Builder clientSecret(String secret) {
      this.clientSecret = Text.require("client secret", secret, 512);
      return this;
    }

    /**
     * How long one page load, script or form answer may take (default 20 s); a browser that takes
     * longer is treated as hung: discarded and replaced, the write answered from the service.
     */
    public Builder stepTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero() || timeout.toMinutes() > 10) {
        throw RatchetException.contract("browser.step_timeout: must be within (0, 10 min]");
      }
      this.stepTimeout = timeout;
      return this;
    }

    /** Reached after the service committed a write the adapter has not yet returned (tests). */
    public Builder crashSeam(CrashSeam seam) {
      this.crash = Objects.requireNonNull(seam);
      return this;
    }

    public BrowserAdapter build() {
      if (clientSecret == null) {
        throw RatchetException.contract("browser adapter: the service's client secret is required");
      }
      if (prefixes.isEmpty()) {
        throw RatchetException.contract("browser adapter: at least one URL prefix is required");
      }
      return new BrowserAdapter(this);
    }
  }
}
