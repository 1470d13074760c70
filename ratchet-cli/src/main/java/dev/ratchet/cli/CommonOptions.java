package dev.ratchet.cli;

import dev.ratchet.ops.PgRole;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Settings;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.seam.CrashSeam;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Options shared by every command that opens a store (docs/cli.md). */
final class CommonOptions {
  @Option(
      names = "--home",
      paramLabel = "DIR",
      description =
          "Local directory for the default store, keys and task copies (default:"
              + " $RATCHET_HOME or ./.ratchet).")
  Path home;

  @Option(
      names = "--store",
      paramLabel = "SPEC",
      description = "sqlite:PATH (default: sqlite:<home>/ratchet.db) or a jdbc:postgresql: URL.")
  String store;

  @Option(
      names = "--mark-store",
      paramLabel = "SPEC",
      description = "A separate store for the high-water marks (same forms as --store).")
  String markStore;

  @Option(
      names = "--key-file",
      paramLabel = "FILE",
      description =
          "Checkpoint key file (mode 0600); repeat to add keys that only verify. Default:"
              + " $RATCHET_CHECKPOINT_KEY, else <home>/keys.")
  List<Path> keyFiles = new ArrayList<>();

  @Option(
      names = "--approvers",
      paramLabel = "DIR",
      description =
          "Trusted approver public keys, one <name>.pub each (default: <home>/approvers).")
  Path approvers;

  @Option(
      names = "--reviewers",
      paramLabel = "DIR",
      description =
          "Trusted reviewer public keys, one <name>.pub each (default: <home>/reviewers).")
  Path reviewers;

  /** The PostgreSQL role of the command these options belong to; set by {@link Main} (D21). */
  PgRole role = PgRole.OWNER;

  Settings settings(Path task) {
    return new Settings(home, store, markStore, keyFiles, approvers, reviewers, task, role);
  }

  /** Opens the existing store (never creates one), with {@code task} as the task file if given. */
  Session openExisting(Services services, Path task) {
    return Session.open(services, settings(task), StoreFactory.Mode.MUST_EXIST, CrashSeam.NONE);
  }
}
