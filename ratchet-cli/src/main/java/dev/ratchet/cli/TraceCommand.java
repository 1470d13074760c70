package dev.ratchet.cli;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.ops.ChainAudit;
import dev.ratchet.ops.Records;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Views;
import dev.ratchet.store.RecordSet;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ratchet trace RUN_ID [--verify]}: the run's trace, optionally with a chain walk. */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    description =
        "Print a verified run's trace; its hash chain is always recomputed against the signed"
            + " head first (exit 3 on a break). With --verify, the other record sets are walked"
            + " too.")
final class TraceCommand extends CliCommand {
  @Mixin RunOptions target;

  @Option(names = "--verify", description = "Walk the hash chains and check the signed heads.")
  boolean verify;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  TraceCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    try (Session session = target.open(services)) {
      Session.Checked c = session.check(target.runId);
      String taskId = c.ref().taskId();
      if (verify) {
        ChainAudit.verify(session.store(), taskId, target.runId, c.state());
      } else {
        // The trace it prints is always audited against the signed head first (D20).
        ChainAudit.verify(session.store(), taskId, target.runId, c.state(), RecordSet.TRACE);
      }
      long count = c.state().head(RecordSet.TRACE).count();
      List<JsonObject> events =
          Records.bodies(
              Records.upTo(session.store(), taskId, target.runId, RecordSet.TRACE, count));
      if (json) {
        out()
            .println(
                Canonical.string(
                    JsonObject.builder()
                        .put("run_id", target.runId)
                        .put("chain_verified", verify)
                        .put("head", c.state().head(RecordSet.TRACE).head())
                        .put("events", Views.array(events))
                        .build()));
        return 0;
      }
      Table t = new Table("SEQ", "AT", "PROPOSAL", "ACTION", "KIND", "OUTCOME", "REVISION");
      for (JsonObject e : events) {
        t.row(
            Views.text(e, "sequence"),
            Instant.ofEpochMilli(Long.parseLong(Views.text(e, "at_ms"))),
            Views.text(e, "proposal_count"),
            Views.text(e, "action_id"),
            Views.text(e, "kind"),
            Views.text(e, "outcome"),
            Views.text(e, "environment_revision"));
      }
      t.print(out());
      if (verify) {
        out()
            .println(
                "hash chains verified: "
                    + count
                    + " trace events, head "
                    + c.state().head(RecordSet.TRACE).head()
                    + " is the one the checkpoint signs");
      }
      return 0;
    }
  }
}
