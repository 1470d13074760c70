package dev.ratchet.harness.demo;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.TraceAudit;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.store.RecordMac;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The demo's verdict: the crash table, the effect count of every intent read from the ledger file,
 * the final verified state, and one summary line. Exit 0 only when every count is 1 and the run
 * completed verified.
 */
final class DemoReport {
  private DemoReport() {}

  static int print(Demo d) {
    PrintWriter out = d.out();
    List<String> problems = new ArrayList<>(d.problems());
    Path workspace = d.dir().resolve("workspace");
    String ledger = read(workspace.resolve(DemoScenario.LEDGER));

    out.println();
    DemoTable crashes =
        new DemoTable("CRASH WINDOW", "WRITE", "RECOVERY FOUND", "RECOVERY DID", "EFFECTS");
    for (Demo.Row r : d.rows()) {
      crashes.row(r.window(), r.step(), r.found(), r.did(), effects(ledger, r.step()));
    }
    crashes.print(out);

    out.println();
    DemoTable intents = new DemoTable("INTENT", "IDEMPOTENCY KEY", "RECEIPTS", "EFFECTS IN LEDGER");
    String finalState;
    try (DemoRun c = new DemoRun(d)) {
      RunState st = c.state;
      for (RecordSet set : RecordSet.values()) {
        TraceAudit.verify(c.store, DemoScenario.TASK_ID, DemoScenario.RUN_ID, set, st.head(set))
            .requireIntact();
      }
      List<Receipt> receipts = receipts(c, st);
      for (int i = 0; i < DemoScenario.ENTRIES.size(); i++) {
        String digest = digest(c, i);
        List<String> keys = new ArrayList<>();
        for (Receipt r : receipts) {
          if (r.intentDigest().equals(digest)) {
            keys.add(r.idempotencyKey());
          }
        }
        int n = DemoScenario.count(ledger, DemoScenario.ENTRIES.get(i));
        intents.row(
            DemoScenario.stepId(i) + " append " + DemoScenario.LEDGER,
            keys.isEmpty() ? "-" : String.join(",", keys),
            keys.size(),
            n);
        if (n != 1) {
          problems.add(DemoScenario.stepId(i) + " took effect " + n + " times in the ledger");
        }
      }
      if (d.quarantinedKey() != null) {
        String foreign = readOrEmpty(workspace.resolve(DemoScenario.FOREIGN_FILE));
        intents.row(
            "foreign write " + DemoScenario.FOREIGN_FILE + " (key quarantined)",
            d.quarantinedKey(),
            "-",
            foreign.isEmpty() ? 0 : 1);
      }
      if (st.phase() != Phase.COMPLETED) {
        problems.add("the run ended " + st.phase().wireName() + " (" + st.stopReason() + ")");
      }
      if (!ledger.equals(DemoScenario.finalLedger())) {
        problems.add(DemoScenario.LEDGER + " is not the verifier's expected content");
      }
      finalState =
          "run "
              + DemoScenario.RUN_ID
              + " "
              + st.phase().wireName()
              + (st.stopReason() == null ? "" : " (" + st.stopReason() + ")")
              + " at generation "
              + c.store.load(DemoScenario.TASK_ID, DemoScenario.RUN_ID).orElseThrow().generation()
              + "; checkpoint HMAC, high-water mark and record chains verified";
    } catch (RatchetException e) {
      problems.add("final verification refused: " + e.getMessage());
      finalState = "REFUSED: " + e.getMessage();
    }
    intents.print(out);
    out.println();
    out.println("final state: " + finalState);
    double seconds = (d.clock().millis() - d.startedMs()) / 1000.0;
    if (problems.isEmpty()) {
      out.printf(
          Locale.ROOT,
          "demo passed in %.1f s: %d crash windows, %d SIGKILLs, %d worker processes, every intent"
              + " took effect exactly once, 1 receipt conflict frozen and resolved by a signed"
              + " replan with a new key%n",
          seconds,
          d.windowsKilled(),
          d.kills(),
          d.workers());
      out.flush();
      return 0;
    }
    for (String p : problems) {
      out.println("problem: " + p);
    }
    out.printf(
        Locale.ROOT,
        "demo FAILED in %.1f s%s: %d problem(s), see above (files kept in %s)%n",
        seconds,
        d.canary() ? " with the key-changing canary in place, as it must" : "",
        problems.size(),
        d.dir());
    out.flush();
    return 1;
  }

  private static String effects(String ledger, String step) {
    for (int i = 0; i < DemoScenario.ENTRIES.size(); i++) {
      if (DemoScenario.stepId(i).equals(step)) {
        return Integer.toString(DemoScenario.count(ledger, DemoScenario.ENTRIES.get(i)));
      }
    }
    return "-";
  }

  /** The run's receipts, read in pages up to the signed count (their chain is audited above). */
  private static List<Receipt> receipts(DemoRun c, RunState st) {
    List<Receipt> out = new ArrayList<>();
    long count = st.head(RecordSet.RECEIPTS).count();
    while (out.size() < count) {
      List<StoredRecord> page =
          c.store.records(
              DemoScenario.TASK_ID, DemoScenario.RUN_ID, RecordSet.RECEIPTS, out.size() + 1L, 1000);
      if (page.isEmpty()) {
        break;
      }
      for (StoredRecord r : page) {
        out.add(Receipt.fromJson(RecordMac.strip(r), "receipt"));
      }
    }
    return out;
  }

  /** The intent digest (D2) of plan step {@code i}: what its receipts must carry. */
  private static String digest(DemoRun c, int i) {
    DemoTask.Step step = c.task.plan().get(i);
    String risk = "";
    for (ActionSpec spec : c.adapter.actionSpecs()) {
      if (spec.kind().equals(step.kind())) {
        risk = spec.risk();
      }
    }
    return new WriteIntent(c.adapter.namespace(), step.kind(), step.arguments(), risk).digest();
  }

  private static String read(Path f) {
    try {
      return Files.readString(f, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  private static String readOrEmpty(Path f) {
    return Files.exists(f) ? read(f) : "";
  }
}
