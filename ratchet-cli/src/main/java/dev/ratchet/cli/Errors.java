package dev.ratchet.cli;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.Passwords;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Turns failures into one error line, one line of what to do, and the exit code of the error code
 * (SPEC D14). Messages come from Ratchet's typed exceptions, which never carry key material; a
 * database password that a message might echo (a URL's user info, {@code password=}) is masked.
 */
final class Errors {
  /** When the adapter's own service is down the store is fine: say so (issue 17). */
  static final String SERVICE_HINT =
      "the run's adapter cannot reach its service or files (named above), not the store: start"
          + " the service or fix the task file's connect section, then 'ratchet resume RUN_ID'"
          + " (a write whose outcome is unknown is reconciled by its receipt)";

  private Errors() {}

  static int handleExecution(Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
    PrintWriter err = cmd.getErr();
    if (ex instanceof RatchetException re) {
      err.println("error [" + re.code() + "]: " + Passwords.redact(re.getMessage()));
      err.println(
          "what to do: "
              + (re instanceof dev.ratchet.ops.ServiceAdapter.Unavailable
                  ? SERVICE_HINT
                  : hint(re.code())));
      err.flush();
      return re.code().exitCode();
    }
    err.println(
        "internal error: "
            + ex.getClass().getSimpleName()
            + (ex.getMessage() == null ? "" : ": " + Passwords.redact(ex.getMessage())));
    err.println("what to do: " + hint(ErrorCode.INTERNAL));
    err.flush();
    return ErrorCode.INTERNAL.exitCode();
  }

  static int handleParameter(CommandLine.ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    PrintWriter err = cmd.getErr();
    err.println("error [usage]: " + Passwords.redact(ex.getMessage()));
    err.println(
        "what to do: see '" + cmd.getCommandSpec().qualifiedName() + " --help' for the usage");
    err.flush();
    return ErrorCode.CONTRACT.exitCode();
  }

  static String hint(ErrorCode code) {
    switch (code) {
      case CONTRACT:
        return "fix the input named above and run the command again";
      case PERMISSION:
        return "the task's policy does not allow this action: change the plan, or publish a new"
            + " task version with the allowlist you need";
      case APPROVAL:
        return "deliver a valid signed approval ('ratchet approve RUN_ID') or reviewer decision"
            + " ('ratchet review decide RUN_ID'), then 'ratchet resume RUN_ID'";
      case REVIEW_REQUIRED:
        return "the run is frozen: 'ratchet review show RUN_ID', then 'ratchet review decide"
            + " RUN_ID'";
      case STALE_OBSERVATION:
        return "the environment changed under the run: 'ratchet resume RUN_ID' re-observes it";
      case IDEMPOTENCY_CONFLICT:
        return "'ratchet inspect RUN_ID' shows the conflicting receipt";
      case CHECKPOINT:
        return "nothing was executed: check the keys (--key-file, RATCHET_CHECKPOINT_KEY,"
            + " <home>/keys) and the task file; if the store was altered, restore it from a"
            + " trusted copy ('ratchet verify RUN_ID' shows what fails)";
      case TERMINAL:
        return "the run has ended: 'ratchet inspect RUN_ID' shows why";
      case VERIFICATION:
        return "the verifier did not pass: fix the plan so the environment meets task.verifier";
      case FENCED:
        return "another worker holds or advanced this run: wait until its lease expires"
            + " ('ratchet status' shows it), then 'ratchet resume RUN_ID' (or 'ratchet resume"
            + " RUN_ID --wait' to wait for it)";
      case STORE_UNAVAILABLE:
        return "check --store (or RATCHET_STORE, or store= in <home>/ratchet.properties; default"
            + " <home>/ratchet.db) and that the database is reachable; only 'ratchet run' and"
            + " 'ratchet demo' create a store";
      default:
        return "this is a bug in Ratchet: please report it with the command that caused it";
    }
  }
}
