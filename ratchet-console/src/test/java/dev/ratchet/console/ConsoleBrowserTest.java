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
 * The console in a real browser: an operator finds the run a real {@code ratchet worker} process
 * left waiting for approval (SQLite store), reads what they sign, approves it and sees the worker
 * execute it; then resolves a frozen conflict by a replan. Every assertion is on what the page
 * shows.
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

  @Test
  void anOperatorApprovesAWaitingRunAndSeesAWorkerProcessExecuteIt() throws Exception {
    try (SqliteConsole s = new SqliteConsole(dir)) {
      s.startWorker();
      s.awaitWorker("run " + SqliteConsole.RUN + ": waiting (awaiting approval)");
      browser.get(s.server.url());
      // The session token moved from the address into a cookie.
      assertThat(browser.getCurrentUrl()).doesNotContain("token=");
      WebElement waiting =
          browser.findElement(By.cssSelector("tr.run[data-run='" + SqliteConsole.RUN + "']"));
      // Needs: core's Waiting rule, as 'status --waiting' shows it.
      assertThat(waiting.findElement(By.cssSelector(".needs")).getText()).isEqualTo("approval");
      assertThat(waiting.getText()).contains("pay_order");
      waiting.findElement(By.linkText(SqliteConsole.RUN)).click();

      assertThat(text("#pending")).contains("waiting for approval").contains("pay-widgets");
      assertThat(text("#pending")).containsPattern("Intent digest\\s+[0-9a-f]{64}");
      assertThat(text("#chain")).startsWith("Hash chains verified");
      browser.findElement(By.id("approve")).click();

      // The whole approval is shown before signing: run, action, digest, expiry, nonce.
      assertThat(text("#payload"))
          .contains("\"run_id\":\"" + SqliteConsole.RUN + "\"")
          .contains("\"approver_id\":\"alice\"")
          .contains("\"intent_digest\"")
          .contains("\"nonce\":\"approval-");
      browser.findElement(By.id("sign")).click();
      assertThat(text("#delivered")).contains("Signed and delivered");

      // The running worker process, not this test, claims the run and executes the write.
      s.awaitWorker("run " + SqliteConsole.RUN + ": ended");
      browser.navigate().refresh();
      assertThat(text("#state")).contains("completed").doesNotContain("waiting for approval");
      assertThat(text("#receipts")).contains("Receipts (3)").contains("rcpt_000003");
      assertThat(text("#trace")).contains("approval_consumed").contains("completed");
      assertThat(text("#consumed")).contains("approval");
      browser.findElement(By.linkText("Runs")).click();
      WebElement done =
          browser.findElement(By.cssSelector("tr.run[data-run='" + SqliteConsole.RUN + "']"));
      assertThat(done.getText()).contains("completed");
      assertThat(done.findElements(By.cssSelector(".needs"))).isEmpty();
    }
  }

  @Test
  void aReviewerResolvesAFrozenConflictByAReplan() {
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
    f.startIdle("r-idle", "idle-task");
    browser.navigate().refresh();
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
}
