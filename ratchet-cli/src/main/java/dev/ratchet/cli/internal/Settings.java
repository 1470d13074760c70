package dev.ratchet.cli.internal;

import java.nio.file.Path;
import java.util.List;

/**
 * The options every store-backed command shares, after parsing. Nulls mean "use the default".
 *
 * @param task a task file overriding the one {@code run} recorded for the run
 */
public record Settings(
    Path home,
    String store,
    String markStore,
    List<Path> keyFiles,
    Path approvers,
    Path reviewers,
    Path task) {
  public static final String ENV_HOME = "RATCHET_HOME";

  public Settings {
    keyFiles = keyFiles == null ? List.of() : List.copyOf(keyFiles);
  }

  public Home resolvedHome() {
    if (home != null) {
      return new Home(home);
    }
    String env = System.getenv(ENV_HOME);
    return new Home(Path.of(env == null || env.isBlank() ? ".ratchet" : env));
  }

  public StoreSpec storeSpec() {
    return store == null
        ? StoreSpec.sqlite(resolvedHome().defaultStore())
        : StoreSpec.parse("--store", store);
  }

  public StoreSpec markSpec() {
    return markStore == null ? null : StoreSpec.parse("--mark-store", markStore);
  }

  public Path approversDir() {
    return approvers == null ? resolvedHome().approvers() : approvers;
  }

  public Path reviewersDir() {
    return reviewers == null ? resolvedHome().reviewers() : reviewers;
  }

  /** The trust directory of {@code role}: {@code <home>/approvers|reviewers|operators}. */
  public Path trustDir(dev.ratchet.sign.Role role) {
    return switch (role) {
      case APPROVER -> approversDir();
      case REVIEWER -> reviewersDir();
      case OPERATOR -> resolvedHome().operators();
    };
  }
}
