package dev.ratchet.cli;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.model.Action;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.ops.Session;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * What {@code approve} shows and checks before it signs (issue 14, D26): the pending write's kind,
 * target and arguments; its intent digest recomputed from exactly those arguments; and whether the
 * run's approver trust root holds the signing key.
 */
final class ApprovalPreview {
  private ApprovalPreview() {}

  /** Prints kind, target and arguments (canonical JSON) of the write being approved. */
  static void show(PrintWriter out, EnvironmentAdapter adapter, PendingIntent p) {
    Action a = p.action();
    out.println("approving " + a.kind() + " " + a.actionId() + " (risk " + a.risk() + ")");
    out.println("  target:    " + target(adapter, a));
    out.println("  arguments: " + Canonical.string(a.arguments()));
    out.println("  intent:    " + p.intentDigest());
  }

  /**
   * Refuses (CONTRACT, exit 2) unless the digest of exactly the shown arguments equals the pending
   * intent's digest: an approval never signs something other than what was shown.
   */
  static void requireDigest(EnvironmentAdapter adapter, PendingIntent p) {
    dev.ratchet.ops.ApprovalRules.requireDigest(adapter, p);
  }

  /**
   * Refuses (CONTRACT, exit 2) a key this home's trust root for the role would not accept, unless
   * {@code force}; with {@code force} it warns.
   */
  static void requireTrusted(PrintWriter err, Session session, SigningKey key, boolean force) {
    requireTrusted(
        err, session.approvers(), session.settings().approversDir(), key, force, "approval");
  }

  /** As above for any role's trust root ({@code dir} is where it was read from). */
  static void requireTrusted(
      PrintWriter err, TrustRoot root, Path dir, SigningKey key, boolean force, String what) {
    if (root.trusts(key.keyId())) {
      return;
    }
    String why =
        root.role().noun()
            + " key "
            + key.keyId()
            + " ('"
            + key.label()
            + "') is not trusted by this run's trust root ("
            + dir
            + ")";
    if (!force) {
      throw RatchetException.contract(
          why
              + ": a worker with this trust root would refuse the "
              + what
              + " (untrusted_signer); install its public key with 'ratchet keys trust', or pass"
              + " --force if the worker holds a different trust root");
    }
    err.println("warning: " + why + "; signing anyway (--force)");
  }

  private static String target(EnvironmentAdapter adapter, Action a) {
    for (ActionSpec spec : adapter.actionSpecs()) {
      if (spec.kind().equals(a.kind())) {
        return spec.target(a.arguments());
      }
    }
    return "-";
  }
}
