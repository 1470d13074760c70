package dev.ratchet.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.langchain4j.DurableAgent;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.CrashPlan;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SeededEntropy;
import dev.ratchet.testkit.SimulatedCrash;
import dev.ratchet.worker.DriveResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A LangChain4j agent (scripted model, offline) whose tools are the browser's actions, durable as
 * in ratchet-langchain4j: the model's response is committed with the first intent it causes (D25),
 * so a crash after the page write committed at the service never asks the model again, and the
 * service counts each order once.
 */
class BrowserAgentTest {
  private static DurableAgent agent(BrowserChatModel model) {
    return DurableAgent.builder(model).goal("order sku-1 and two sku-2 on the web page").build();
  }

  @Test
  void theAgentShopsThroughThePagesAndACrashAfterTheClickNeverAsksTheModelAgain() throws Exception {
    Path dir = Files.createTempDirectory("ratchet-browser-agent");
    RuntimeFixture f = RuntimeFixture.inMemory(BrowserRuns.SEED + 2);
    String account = "acct-agent";
    TaskSpec task = BrowserRuns.task(account);
    BrowserChatModel model = new BrowserChatModel(account);
    try (ReferenceService service =
        ReferenceService.start(dir.resolve("ledger.db"), 0, f.clock, new SeededEntropy(6))) {
      CrashPlan plan = new CrashPlan();
      try (BrowserAdapter first = WebLedger.adapter(service, plan)) {
        Run run = f.ratchet("w1", plan).start(task, "run-agent", first);
        plan.arm(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
        assertThatThrownBy(() -> agent(model).drive(run, task)).isInstanceOf(SimulatedCrash.class);
        assertThat(plan.fired()).contains(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
        plan.disarm();
      }
      assertThat(WebLedger.orders(service, account)).isEqualTo(1);
      f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
      try (BrowserAdapter second = WebLedger.adapter(service, CrashSeam.NONE);
          Run again = f.ratchet("w2").resume(task, "run-agent", second)) {
        DriveResult r = agent(model).drive(again, task);
        assertThat(r.kind()).isEqualTo(DriveResult.Kind.ENDED);
        assertThat(again.state().phase()).isEqualTo(Phase.COMPLETED);
      }
      assertThat(WebLedger.orders(service, account)).isEqualTo(2);
      assertThat(model.calls("order")).as("the decided response is never asked again").isEqualTo(1);
      assertThat(model.calls("finish")).isEqualTo(1);
    }
  }
}
