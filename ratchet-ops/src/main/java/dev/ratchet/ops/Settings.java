package dev.ratchet.ops;

import java.nio.file.Path;
import java.util.List;

/**
 * The options every store-backed command shares, after parsing. Nulls mean "use the default".
 *
 * @param task a task file overriding the one {@code run} recorded for the run
 * @param role the PostgreSQL role the command connects as when its user is configured (D21)
 * @param config the home's {@code ratchet.properties} as a long-lived process read it at start
 *     ({@link #pinned}), or null: read the file whenever a setting needs it
 */
public record Settings(
    Path home,
    String store,
    String markStore,
    List<Path> keyFiles,
    Path approvers,
    Path reviewers,
    Path task,
    PgRole role,
    Configuration config) {
  public static final String ENV_HOME = "RATCHET_HOME";
  public static final String ENV_STORE = "RATCHET_STORE";
  public static final String ENV_MARK_STORE = "RATCHET_MARK_STORE";

  public Settings {
    keyFiles = keyFiles == null ? List.of() : List.copyOf(keyFiles);
    role = role == null ? PgRole.OWNER : role;
  }

  /** Settings reading the home's file whenever a setting needs it. */
  public Settings(
      Path home,
      String store,
      String markStore,
      List<Path> keyFiles,
      Path approvers,
      Path reviewers,
      Path task,
      PgRole role) {
    this(home, store, markStore, keyFiles, approvers, reviewers, task, role, null);
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
    return new Settings(
        home, store, markStore, keyFiles, approvers, reviewers, task, other, config);
  }

  /**
   * These settings with the home's {@code ratchet.properties} read now and kept (issue 39): a
   * long-lived process (worker, MCP server, console) opens every store with what it started with,
   * and only {@link LiveConfig} changes what may change while it runs. Refused when the file is
   * malformed.
   */
  public Settings pinned() {
    return config != null
        ? this
        : new Settings(
            home, store, markStore, keyFiles, approvers, reviewers, task, role, configuration());
  }

  /** The home's configuration: the pinned one, else the file as it is now. */
  public Configuration configuration() {
    return config != null ? config : Configuration.read(resolvedHome());
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
    StoreSpec s = spec("--store", store, ENV_STORE, Configuration.STORE);
    return s != null ? login(s) : StoreSpec.sqlite(resolvedHome().defaultStore());
  }

  /** As {@link #storeSpec}, for the separate mark store; null when none is configured. */
  public StoreSpec markSpec() {
    StoreSpec s = spec("--mark-store", markStore, ENV_MARK_STORE, Configuration.MARK_STORE);
    return s == null ? null : login(s);
  }

  /** {@code s} connecting as this command's role, when a user is configured for it. */
  private StoreSpec login(StoreSpec s) {
    if (s.kind() != StoreSpec.Kind.POSTGRESQL || role == PgRole.OWNER) {
      return s;
    }
    String user = role.configuredUser(configuration());
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
    Configuration file = configuration();
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
