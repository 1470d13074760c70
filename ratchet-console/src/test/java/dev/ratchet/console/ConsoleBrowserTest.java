package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser (D30: the browser signs): an operator generates a key in the
 * browser, is refused until it is enrolled, then approves the run a real {@code ratchet worker}
 * process left waiting (SQLite store) and sees the worker execute it; a reviewer imports her PKCS#8
 * key and resolves a frozen conflict by a replan; an operator imports hers and cancels. Every
 * assertion is on what the page shows.
 */
class ConsoleBrowserTest {
  @TempDir Path dir;
  private ConsoleFixture f;
  private WebDriver browser;

  @BeforeEach
  void start() {
    f = new ConsoleFixture(dir);
    browser = Browser.start(1280, 1000);
    browser.get(f.server.url());
  }

  @AfterEach
  void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (f != null) {
      f.close();
    }
  }

  /**
   * The text of the element, once the page shows it: a form's POST answers with a redirect, and a
   * click can return before the browser has followed it.
   */
  private String text(String css) {
    return new WebDriverWait(browser, Duration.ofSeconds(10))
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(css)))
        .getText();
  }

  /**
   * Issue 36's Must show: a key generated in the browser is refused until it is enrolled (the
   * reason on the page, nothing delivered); once enrolled with 'ratchet keys trust', the approval
   * it signs is delivered and a real worker process (started before the enrollment: it re-reads its
   * trust roots, issue 39) executes the write once. The console was started with no private key at
   * all (its request type has none).
   */
  @Test
  void anOperatorSignsInTheBrowserAndAWorkerProcessExecutesTheWriteOnce() throws Exception {
    try (SqliteConsole s = new SqliteConsole(dir)) {
      s.startWorker();
      s.awaitWorker("run " + SqliteConsole.RUN + ": waiting (awaiting approval)");
      String key = s.pendingKey();
      browser.get(s.server.url());
      // The login address left the address bar; the session lives in a cookie.
      assertThat(browser.getCurrentUrl()).doesNotContain("code=");
      String base = browser.getCurrentUrl().replaceAll("/$", "");
      BrowserKeys.Shown carol = BrowserKeys.generate(browser, base);
      assertThat(carol.publicKeyPem()).startsWith("-----BEGIN PUBLIC KEY-----");
      assertThat(carol.keyId()).matches("[0-9a-f]{16}");

      // Not enrolled yet: the page warns before signing, and the console refuses after.
      browser.get(base + "/runs/" + SqliteConsole.RUN);
      WebElement waiting = browser.findElement(By.id("pending"));
      assertThat(waiting.getText()).contains("waiting for approval").contains("pay-widgets");
      browser.findElement(By.id("approve")).click();
      assertThat(text(".note")).contains("not in this store's approver trust root");
      browser.findElement(By.id("sign")).click();
      assertThat(text("#reason")).isEqualTo("untrusted_signer");
      assertThat(text("#problem")).contains(carol.keyId()).contains("not trusted");
      browser.get(base + "/runs/" + SqliteConsole.RUN);
      assertThat(text("#inbox")).contains("Empty");

      // Enrolled as 'carol': the approval names her, is signed in the browser and delivered. The
      // running worker started before she was enrolled: it re-reads its trust roots (issue 39).
      s.cli("keys", "trust", "--role", "approver", carol.writeAs(s.cwd, "carol").toString());
      s.awaitWorker("waiting run(s) after a trust change");
      browser.navigate().refresh();
      browser.findElement(By.id("approve")).click();
      assertThat(text("#payload"))
          .contains("\"run_id\":\"" + SqliteConsole.RUN + "\"")
          .contains("\"approver_id\":\"carol\"")
          .contains("\"intent_digest\"")
          .contains("\"nonce\":\"approval-");
      assertThat(text("#arguments")).contains("\"amount_cents\": 3750");
      browser.findElement(By.id("sign")).click();
      // The worker process writes the same SQLite file meanwhile: allow the delivery its lock.
      new WebDriverWait(browser, Duration.ofSeconds(60))
          .until(ExpectedConditions.presenceOfElementLocated(By.id("delivered")));
      assertThat(text("#delivered")).contains("Signed and delivered");
      assertThat(text("#inbox")).contains("carol").contains(carol.keyId());
      // Issue 39: the page after signing shows the delivered decision, and no second Approve.
      assertThat(browser.findElements(By.id("approve"))).isEmpty();
      assertThat(text("#state") + text("body"))
          .doesNotContain("none yet: waiting for approval")
          .doesNotContain("ratchet approve");

      // The running worker process, not this test, claims the run and executes the write.
      s.awaitWorker("run " + SqliteConsole.RUN + ": ended");
      browser.navigate().refresh();
      assertThat(text("#state")).contains("completed").doesNotContain("waiting for approval");
      assertThat(text("#receipts")).contains("Receipts (3)").contains("rcpt_000003");
      assertThat(text("#trace")).contains("approval_consumed").contains("completed");
      assertThat(s.ledger.effects(key)).as("the payment ran once").isEqualTo(1);
    }
  }

  /** The reviewer imports the PKCS#8 key file she already has; it signs the same way. */
  @Test
  void aReviewerWithAnImportedKeyResolvesAFrozenConflictByAReplan() {
    BrowserKeys.Shown rita =
        BrowserKeys.importPkcs8(browser, f.base(), f.home.resolve("identities/reviewer/rita.key"));
    assertThat(rita.keyId()).isEqualTo(f.rita.keyId());
    browser.findElement(By.linkText("Review queue")).click();
    WebElement c = browser.findElement(By.id(ConsoleFixture.CONFLICT));
    assertThat(c.getText())
        .contains("receipt_intent_conflict")
        .contains("PENDING INTENT")
        .contains("RECEIPT THE ADAPTER HOLDS")
        .contains(f.conflictKey)
        .contains("\"fence_run_id\": \"other\"");
    c.findElement(By.id("replan")).click();

    String payload = text("#payload");
    assertThat(payload)
        .contains("\"decision\":\"replan\"")
        .contains("\"reviewer_id\":\"rita\"")
        .contains("\"idempotency_key\":\"" + f.conflictKey + "\"");
    browser.findElement(By.id("sign")).click();
    assertThat(text("#delivered")).contains("Signed and delivered");
    assertThat(text("#inbox")).contains("review_decision").contains("rita");

    assertThat(f.worker(ConsoleFixture.CONFLICT)).contains("replan by rita applied");
    browser.navigate().refresh();
    assertThat(text("#state")).contains("running");
    assertThat(text("#quarantined")).contains("Quarantined keys (1)").contains(f.conflictKey);
    assertThat(text("#trace")).contains("review_replanned");
    // The replanned write has a new key and waits for approval again.
    assertThat(text("#pending")).contains("waiting for approval").doesNotContain(f.conflictKey);
  }

  @Test
  void anOperatorCancelsARunningRunWithAReasonAndSeesItEndCancelled() {
    BrowserKeys.importPkcs8(browser, f.base(), f.home.resolve("identities/operator/olga.key"));
    f.startIdle("r-idle", "idle-task");
    browser.get(f.base() + "/");
    browser.findElement(By.linkText("r-idle")).click();
    assertThat(text("#state")).contains("running");
    WebElement reason = browser.findElement(By.id("cancel-reason"));
    reason.clear();
    reason.sendKeys("wrong ticket");
    browser.findElement(By.id("cancel")).click();

    // The whole cancel is shown before signing, and what the next recovery does with it.
    assertThat(text("#payload"))
        .contains("\"run_id\":\"r-idle\"")
        .contains("\"operator_id\":\"olga\"")
        .contains("\"reason\":\"wrong ticket\"")
        .contains("\"nonce\":\"cancel-");
    assertThat(text(".note")).contains("the run ends cancelled");
    browser.findElement(By.id("sign")).click();
    assertThat(text("#delivered")).contains("Signed and delivered");
    assertThat(text("#inbox")).contains("cancel").contains("olga");

    assertThat(f.worker("r-idle")).contains("cancelled");
    browser.navigate().refresh();
    assertThat(text("#state")).contains("cancelled");
    assertThat(text("#trace")).contains("operator_cancelled");
    assertThat(browser.findElements(By.id("cancel"))).isEmpty();
  }

  /**
   * Issue 39: an approval-gated write pending in a run frozen by a cancel is shown as required
   * (never "not required"), with no Approve button; the review section says what replan and abort
   * will do, as 'ratchet review show' does.
   */
  @Test
  void aFrozenPendingWriteThatNeedsApprovalIsShownAsRequiredWithWhatEachDecisionDoes() {
    BrowserKeys.importPkcs8(browser, f.base(), f.home.resolve("identities/operator/olga.key"));
    browser.get(f.base() + "/runs/" + ConsoleFixture.APPROVE);
    assertThat(text("#pending")).contains("waiting for approval");
    WebElement reason = browser.findElement(By.id("cancel-reason"));
    reason.clear();
    reason.sendKeys("wrong ticket");
    browser.findElement(By.id("cancel")).click();
    assertThat(text(".note")).contains("A write is pending").contains("cancel_requested");
    browser.findElement(By.id("sign")).click();
    assertThat(text("#delivered")).contains("Signed and delivered");

    f.worker(ConsoleFixture.APPROVE); // the next recovery freezes it for a reviewer
    browser.navigate().refresh();
    assertThat(text("#state")).contains("needs_review").contains("cancel_requested");
    assertThat(text("#pending"))
        .contains("append_file")
        .contains("required")
        .contains("frozen for review")
        .doesNotContain("not required");
    assertThat(browser.findElements(By.id("approve"))).isEmpty();
    assertThat(text("#abort-does")).contains("the run ends failed (cancel_reviewed)");
    assertThat(text("#replan-does")).contains("quarantined");
  }
}
