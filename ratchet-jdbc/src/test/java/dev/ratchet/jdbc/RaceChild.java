package dev.ratchet.jdbc;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseToken;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.store.StoredRun;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;

/**
 * A long-lived child JVM of {@link PostgresProcessRaceTest}: one worker process on the PostgreSQL
 * store, connected as the worker role. On {@code PREP} it loads the run and prepares the commit of
 * the next generation (its own checkpoint and one trace record), answering {@code READY g}; on
 * {@code GO} it commits at once and answers {@code WON g}, {@code LOST g} or {@code FENCED}; on
 * {@code EXIT} (or end of input) it closes the store and exits.
 *
 * <p>Args: JDBC URL, role, password, schema, run id, lease owner, lease version, own name.
 */
public final class RaceChild {
  /** The environment variable that carries the lease token, as hex. */
  static final String TOKEN_ENV = "RATCHET_TEST_LEASE_TOKEN";

  private RaceChild() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Database db = Database.postgres(args[0], args[1], args[2]).withSchema(args[3]).withPoolSize(2);
    String runId = args[4];
    Lease fence =
        new Lease(
            runId,
            args[5],
            Long.parseLong(args[6]),
            Instant.EPOCH,
            LeaseToken.of(java.util.HexFormat.of().parseHex(System.getenv(TOKEN_ENV))));
    String name = args[7];
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (JdbcStore store =
        JdbcStore.open(db, StoreOptions.defaults(InstantSource.fixed(Instant.EPOCH)))) {
      out.println("OPEN");
      CommitRequest prepared = null;
      String line;
      while ((line = in.readLine()) != null && !line.equals("EXIT")) {
        if (line.equals("PREP")) {
          StoredRun run = store.load(TestRun.TASK, runId).orElseThrow();
          prepared = next(run, fence, name);
          out.println("READY " + run.generation());
        } else if (line.equals("GO")) {
          CommitResult r = store.commit(prepared);
          out.println(
              switch (r.kind()) {
                case COMMITTED -> "WON " + ((CommitResult.Committed) r).generation();
                case LOST_RACE -> "LOST " + ((CommitResult.LostRace) r).currentGeneration();
                case FENCED -> "FENCED";
              });
        }
      }
    }
  }

  private static CommitRequest next(StoredRun run, Lease fence, String name) {
    SetHead trace = run.head(RecordSet.TRACE);
    long seq = trace.count() + 1;
    StoredRecord r =
        RecordChain.append(
            trace,
            RecordSet.TRACE,
            Long.toString(seq),
            Canonical.string(
                JsonObject.builder().put("writer", name).put("sequence", seq).build()));
    return new CommitRequest(
        new RunScope(TestRun.TASK, run.scope().runId(), TestRun.ENV),
        run.generation(),
        fence,
        Canonical.string(
            JsonObject.builder()
                .put("generation", run.generation() + 1)
                .put("writer", name)
                .put("trace_head", RecordChain.advance(trace, r).head())
                .build()),
        List.of(r));
  }
}
