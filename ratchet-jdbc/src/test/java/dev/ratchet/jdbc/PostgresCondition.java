package dev.ratchet.jdbc;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Runs {@link RequiresPostgres} classes when the server answers; see {@link Postgres#problem}. */
final class PostgresCondition implements ExecutionCondition {
  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    String problem = Postgres.problem();
    if (problem == null) {
      return ConditionEvaluationResult.enabled("PostgreSQL at " + Postgres.URL + " answers");
    }
    String name = context.getDisplayName();
    if (Postgres.REQUIRED) {
      throw new IllegalStateException(
          "CI=true requires PostgreSQL at " + Postgres.URL + " for " + name + ": " + problem);
    }
    String reason =
        "SKIPPED "
            + name
            + ": PostgreSQL at "
            + Postgres.URL
            + " is not reachable ("
            + problem
            + "); set CI=true to make it required";
    System.err.println(reason);
    return ConditionEvaluationResult.disabled(reason);
  }
}
