package dev.ratchet.agentdemo;

import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.agentdemo.AgentDemoSetup.Part;
import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The agent demo's verdict: the crash table, every write's effect count (ledger rows read from the
 * ledger service itself; workspace executions from the run's trace), every model decision's call
 * count, the final states. Exit 0 only when each count is 1, app.py is repaired and both runs
 * completed verified.
 */
final class AgentDemoReport {
  /** Every decision of the two scripts: each must be asked of the model exactly once. */
  private static final Map<String, List<String>> DECISIONS =
      Map.of(
          "calls-repair", List.of("diagnose", "repair", "finish"),
          "calls-pay", List.of("order", "pay", "check", "finish"));

  private AgentDemoReport() {}

  static int print(AgentDemo d, PrintWriter out, ReferenceService ledger) {
    List<String> problems = d.problems;
    out.println();
    DemoTable crashes =
        new DemoTable("CRASH WINDOW", "RUN", "TOOL CALL", "RECOVERY FOUND", "RECOVERY DID");
    d.crashes.forEach(c -> crashes.row(c.window(), c.run(), c.call(), c.found(), c.did()));
    crashes.print(out);

    out.println();
    DemoTable writes =
        new DemoTable("RUN", "WRITE", "IDEMPOTENCY KEY", "TRACE", "EFFECTS", "COUNTED IN");
    for (String e : d.events) {
      String[] f = e.split(" ");
      if (!isWrite(f[2]) || !List.of("executed", "reconciled", "replayed").contains(f[3])) {
        continue;
      }
      boolean ws = f[2].equals("write_file");
      int n = ws ? count(d, f[0], f[1], "executed") : ledgerEffects(ledger, f[2], f[4]);
      writes.row(
          f[0],
          f[1] + " " + f[2],
          f[4],
          outcomes(d, f[0], f[1]),
          n,
          ws ? "the run's adapter executions" : "the ledger service's rows");
      if (n != 1) {
        problems.add(f[0] + " " + f[1] + " " + f[2] + " took effect " + n + " times");
      }
    }
    if (writes.size() != 3) {
      problems.add("expected 3 writes with a receipt, found " + writes.size());
    }
    writes.print(out);
    out.println(
        "(awaiting_approval: the worker found no valid approval yet and the write waited;"
            + " approval_consumed: alice's signed approval was used)");

    out.println();
    DemoTable calls = new DemoTable("AGENT", "MODEL DECISION", "MODEL CALLS");
    DECISIONS.forEach(
        (file, decisions) -> {
          List<String> seen = lines(d.dir().resolve(file));
          for (String decision : decisions) {
            int n = Collections.frequency(seen, decision);
            calls.row(file.substring("calls-".length()), decision, n);
            if (n != 1) {
              problems.add("the model was asked " + n + " times for '" + decision + "'");
            }
          }
        });
    calls.print(out);
    out.println();
    for (Part p : Part.values()) {
      out.println("final state: " + finalState(d, p, problems));
    }
    String app = read(d.dir().resolve("workspace").resolve(AgentDemoSetup.APP));
    if (!app.equals(AgentDemoSetup.FIXED)) {
      problems.add(AgentDemoSetup.APP + " is not repaired: the unit test still fails");
    }
    double seconds = (System.currentTimeMillis() - d.startedMs()) / 1000.0;
    if (problems.isEmpty()) {
      out.printf(
          Locale.ROOT,
          "demo agent passed in %.1f s: %d SIGKILLs, %d worker processes, every write took effect"
              + " exactly once, no decided step was asked of the model again, the tests pass%n",
          seconds,
          d.kills,
          d.workers);
      out.flush();
      return 0;
    }
    problems.forEach(p -> out.println("problem: " + p));
    out.printf(
        Locale.ROOT,
        "demo agent FAILED in %.1f s: %d problem(s), see above (files kept in %s)%n",
        seconds,
        problems.size(),
        d.dir());
    out.flush();
    return 1;
  }

  private static String finalState(AgentDemo d, Part p, List<String> problems) {
    try {
      RunState st = d.state(p);
      if (st.phase() != Phase.COMPLETED) {
        problems.add("run " + p.runId() + " ended " + st.phase().wireName());
      }
      return "run "
          + p.runId()
          + " "
          + st.phase().wireName()
          + (st.stopReason() == null ? "" : " (" + st.stopReason() + ")")
          + "; checkpoint HMAC and record chains verified";
    } catch (RatchetException e) {
      problems.add("final verification of " + p.runId() + " refused: " + e.getMessage());
      return "run " + p.runId() + " REFUSED: " + e.getMessage();
    }
  }

  private static boolean isWrite(String kind) {
    return kind.equals("write_file")
        || kind.equals(LedgerApi.CREATE_ORDER)
        || kind.equals(LedgerApi.PAY_ORDER);
  }

  /** How many of the run's events for {@code actionId} have {@code outcome}. */
  private static int count(AgentDemo d, String run, String actionId, String outcome) {
    int n = 0;
    for (String e : d.events) {
      String[] f = e.split(" ");
      if (f[0].equals(run) && f[1].equals(actionId) && f[3].equals(outcome)) {
        n++;
      }
    }
    return n;
  }

  /** The ledger's own rows: the account's orders, or the payment rows under the key. */
  private static int ledgerEffects(ReferenceService ledger, String kind, String key) {
    if (kind.equals(LedgerApi.PAY_ORDER)) {
      return ledger.effects(key);
    }
    int n = 0;
    for (JsonObject o : ledger.orders()) {
      if (o.get("account").orElseThrow().equals(new JsonString(AgentDemoSetup.ACCOUNT))) {
        n++;
      }
    }
    return n;
  }

  private static String outcomes(AgentDemo d, String run, String actionId) {
    StringBuilder b = new StringBuilder();
    for (String e : d.events) {
      String[] f = e.split(" ");
      if (f[0].equals(run) && f[1].equals(actionId)) {
        b.append(b.length() == 0 ? "" : ",").append(f[3]);
      }
    }
    return b.toString();
  }

  private static List<String> lines(Path f) {
    try {
      return Files.exists(f) ? Files.readAllLines(f) : List.of();
    } catch (IOException e) {
      return List.of();
    }
  }

  private static String read(Path f) {
    try {
      return Files.readString(f);
    } catch (IOException e) {
      return "";
    }
  }
}
