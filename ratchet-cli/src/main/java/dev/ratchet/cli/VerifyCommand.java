package dev.ratchet.cli;

import dev.ratchet.ops.ChainAudit;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.store.RecordSet;
import java.util.Map;
import java.util.StringJoiner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code ratchet verify RUN_ID}: integrity and freshness of the stored run; executes nothing. */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description =
        "Check a stored run without executing anything: envelope, checksum, HMAC and key id,"
            + " generation against the high-water mark, task fingerprint, invariants, and every"
            + " record chain against its signed head. Exit 3 when anything fails.")
final class VerifyCommand extends CliCommand {
  @Mixin RunOptions target;

  VerifyCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    try (Session session = target.open(services)) {
      Session.Checked c = session.check(target.runId);
      Map<RecordSet, Long> counts =
          ChainAudit.verify(session.store(), c.ref().taskId(), target.runId, c.state());
      StringJoiner sets = new StringJoiner(", ");
      counts.forEach((set, n) -> sets.add(set.wireName() + " " + n));
      out()
          .println(
              "run "
                  + target.runId
                  + " verified at generation "
                  + c.ref().generation()
                  + " (phase "
                  + c.state().phase().wireName()
                  + ", signed by key "
                  + session.signingKeyId(c.ref())
                  + "): envelope, checksum, HMAC, high-water mark, task fingerprint, invariants and"
                  + " record chains ("
                  + sets
                  + "). Nothing was executed.");
      return 0;
    }
  }
}
