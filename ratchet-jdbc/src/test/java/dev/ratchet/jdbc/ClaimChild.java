package dev.ratchet.jdbc;

import dev.ratchet.schedule.Claim;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;

/**
 * A claimer in its own JVM for the scheduling contract's process race ({@link
 * dev.ratchet.testkit.SchedulingStoreContract}): opens the store, answers {@code OPEN}, waits for
 * {@code GO}, then claims until nothing is claimable, finishing and releasing each claim and
 * printing {@code CLAIMED <run id>}; exits 0.
 *
 * <p>Args: {@code sqlite FILE CLOCK_MS OWNER} (the store's clock fixed where the test's manual
 * clock stands) or {@code postgres URL ROLE SCHEMA OWNER} (the schema's database clock, pinned by
 * the test; the password is the test servers' fixed one).
 */
public final class ClaimChild {
  private ClaimChild() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    JdbcStore store;
    String owner;
    if (args[0].equals("sqlite")) {
      InstantSource clock = InstantSource.fixed(Instant.ofEpochMilli(Long.parseLong(args[2])));
      store =
          JdbcStore.open(
              Database.sqlite(Path.of(args[1])),
              StoreOptions.defaults(clock).withOpenMode(OpenMode.MUST_EXIST));
      owner = args[3];
    } else {
      store =
          JdbcStore.open(
              Database.postgres(args[1], args[2], Postgres.PASSWORD)
                  .withSchema(args[3])
                  .withPoolSize(2),
              StoreOptions.defaults(
                  InstantSource.fixed(Instant.EPOCH))); // PostgreSQL's clock rules
      owner = args[4];
    }
    try (store) {
      out.println("OPEN");
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      if (!"GO".equals(in.readLine())) {
        return;
      }
      Duration ttl = Duration.ofMinutes(5);
      for (Optional<Claim> c = store.claim(owner, ttl);
          c.isPresent();
          c = store.claim(owner, ttl)) {
        store.finish(c.get(), c.get().lease());
        store.release(c.get().lease());
        out.println("CLAIMED " + c.get().runId());
      }
    }
  }
}
