package dev.ratchet.ops;

import dev.ratchet.ops.internal.HomeConfig;
import java.nio.file.Path;
import java.util.List;

/**
 * The options every store-backed command shares, after parsing. Nulls mean "use the default".
 *
 * @param task a task file overriding the one {@code run} recorded for the run
 * @param role the PostgreSQL role the command connects as when its user is configured (D21)
 */
public record Settings(
    Path home,
    String store,
    String markStore,
    List<Path> keyFiles,
    Path approvers,
    Path reviewers,
    Path task,
    PgRole role) {
  public static final String ENV_HOME = "RATCHET_HOME";
  public static final String ENV_STORE = "RATCHET_STORE";
  public static final String ENV_MARK_STORE = "RATCHET_MARK_STORE";

  public Settings {
    keyFiles = keyFiles == null ? List.of() : List.copyOf(keyFiles);
    role = role == null ? PgRole.OWNER : role;
  }

  /** Settings connecting as the default (owner) user. */
  public Settings(
      Path home,
      String store,
      String markStore,
      List<Path> keyFiles,
      Path approvers,
      Path reviewers,
      Path task) {
    this(home, store, markStore, keyFiles, approvers, reviewers, task, PgRole.OWNER);
  }

  /** These settings connecting as {@code other} (the console reads and delivers as two roles). */
  public Settings as(PgRole other) {
    return new Settings(home, store, markStore, keyFiles, approvers, reviewers, task, other);
  }

  public Home resolvedHome() {
    if (home != null) {
      return new Home(home);
    }
    String env = System.getenv(ENV_HOME);
    return new Home(Path.of(env == null || env.isBlank() ? ".ratchet" : env));
  }

  /** {@code --store}, else {@code RATCHET_STORE}, else the home's file, else the home's SQLite. */
  public StoreSpec storeSpec() {
    StoreSpec s = spec("--store", store, ENV_STORE, HomeConfig.STORE);
    return s != null ? login(s) : StoreSpec.sqlite(resolvedHome().defaultStore());
  }

  /** As {@link #storeSpec}, for the separate mark store; null when none is configured. */
  public StoreSpec markSpec() {
    StoreSpec s = spec("--mark-store", markStore, ENV_MARK_STORE, HomeConfig.MARK_STORE);
    return s == null ? null : login(s);
  }

  /** {@code s} connecting as this command's role, when a user is configured for it. */
  private StoreSpec login(StoreSpec s) {
    if (s.kind() != StoreSpec.Kind.POSTGRESQL || role == PgRole.OWNER) {
      return s;
    }
    String user = role.configuredUser(resolvedHome());
    return user == null ? s : s.as(role, user);
  }

  /** Flags > environment > {@code <home>/ratchet.properties}; each parse error names its source. */
  private StoreSpec spec(String flag, String flagValue, String env, String key) {
    if (flagValue != null) {
      return StoreSpec.parse(flag, flagValue);
    }
    String fromEnv = System.getenv(env);
    if (fromEnv != null && !fromEnv.isBlank()) {
      return StoreSpec.parse(env, fromEnv.strip());
    }
    HomeConfig file = HomeConfig.of(resolvedHome());
    return file.get(key).map(v -> StoreSpec.parse(file.where(key), v)).orElse(null);
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
