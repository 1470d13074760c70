package dev.ratchet.ops;

import java.util.Locale;
import java.util.Map;

/**
 * The PostgreSQL role a command connects as (SPEC D21, docs/cli.md "PostgreSQL roles"). A role's
 * login user comes from {@code RATCHET_PG_<ROLE>_USER}, else {@code pg.<role>-user} in the home's
 * {@code ratchet.properties}; its password only from {@code RATCHET_PG_<ROLE>_PASSWORD}. When no
 * user is configured for the role, the command connects as {@code RATCHET_PG_USER} as before.
 */
public enum PgRole {
  OWNER,
  WORKER,
  OPERATOR,
  INSPECTOR;

  /** Which role each command (its qualified name, e.g. {@code review decide}) connects as. */
  private static final Map<String, PgRole> COMMANDS =
      Map.ofEntries(
          Map.entry("run", WORKER),
          Map.entry("resume", WORKER),
          Map.entry("mcp", WORKER),
          Map.entry("worker", WORKER),
          Map.entry("approve", OPERATOR),
          Map.entry("refresh-approval", OPERATOR),
          Map.entry("review decide", OPERATOR),
          Map.entry("cancel", OPERATOR),
          Map.entry("pause", OPERATOR),
          Map.entry("unpause", OPERATOR),
          Map.entry("migrate", OPERATOR),
          Map.entry("submit", OPERATOR),
          Map.entry("keys trust", OPERATOR), // wakes waiting runs (ADR 0053)
          Map.entry("status", INSPECTOR),
          Map.entry("inspect", INSPECTOR),
          Map.entry("verify", INSPECTOR),
          Map.entry("trace", INSPECTOR),
          Map.entry("review list", INSPECTOR),
          Map.entry("review show", INSPECTOR));

  /** The role of {@code command}; the owner (today's single user) for any other command. */
  public static PgRole forCommand(String command) {
    return COMMANDS.getOrDefault(command, OWNER);
  }

  /** {@code pg.worker-user} etc.: the key of this role's user in {@code ratchet.properties}. */
  public String userKey() {
    return "pg." + name().toLowerCase(Locale.ROOT) + "-user";
  }

  /** {@code RATCHET_PG_WORKER_USER} etc. */
  public String userEnv() {
    return "RATCHET_PG_" + name() + "_USER";
  }

  /** {@code RATCHET_PG_WORKER_PASSWORD} etc. */
  public String passwordEnv() {
    return "RATCHET_PG_" + name() + "_PASSWORD";
  }

  /** This role's configured login user (environment, then the file), or null when none is. */
  public String configuredUser(Home home) {
    return this == OWNER ? null : configuredUser(Configuration.read(home));
  }

  /** As {@link #configuredUser(Home)}, with the home's file as {@code file} holds it. */
  public String configuredUser(Configuration file) {
    if (this == OWNER) {
      return null;
    }
    String env = System.getenv(userEnv());
    if (env != null && !env.isBlank()) {
      return env.strip();
    }
    return file.get(userKey()).orElse(null);
  }
}
