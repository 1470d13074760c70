package dev.ratchet.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The command-to-role mapping documented in docs/cli.md "PostgreSQL roles". */
class PgRoleTest {
  @Test
  void eachCommandConnectsAsTheDocumentedRole() {
    for (String c : new String[] {"run", "resume", "mcp", "worker"}) {
      assertThat(PgRole.forCommand(c)).as(c).isEqualTo(PgRole.WORKER);
    }
    for (String c : new String[] {"approve", "refresh-approval", "review decide", "cancel"}) {
      assertThat(PgRole.forCommand(c)).as(c).isEqualTo(PgRole.OPERATOR);
    }
    for (String c :
        new String[] {"status", "inspect", "verify", "trace", "review list", "review show"}) {
      assertThat(PgRole.forCommand(c)).as(c).isEqualTo(PgRole.INSPECTOR);
    }
    assertThat(PgRole.forCommand("db init")).isEqualTo(PgRole.OWNER);
    assertThat(PgRole.forCommand("keys rotate")).isEqualTo(PgRole.OWNER);
    assertThat(PgRole.WORKER.userKey()).isEqualTo("pg.worker-user");
    assertThat(PgRole.OPERATOR.userEnv()).isEqualTo("RATCHET_PG_OPERATOR_USER");
    assertThat(PgRole.INSPECTOR.passwordEnv()).isEqualTo("RATCHET_PG_INSPECTOR_PASSWORD");
  }
}
