package dev.ratchet.browser;

import dev.ratchet.Run;
import dev.ratchet.harness.HaltingSeam;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * A worker JVM for {@link BrowserCrashWindowsTest}: {@code STORE_DB SERVICE_URI SECRET_FILE RUN_ID
 * ACCOUNT CRASH_POINT order|pay}. Starts the run on a SQLite store and drives it through headless
 * Chromium; at the crash point, reached by the first order's write or by the payment's, it prints
 * {@code CRASH <point>} and waits for its SIGKILL.
 */
public final class BrowserWorkerChild {
  static final Instant T0 = Instant.parse("2026-12-06T09:00:00Z");

  private BrowserWorkerChild() {}

  public static void main(String[] args) throws Exception {
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    ManualClock clock = new ManualClock(T0);
    JdbcStore store =
        JdbcStore.open(
            Database.sqlite(Path.of(args[0])),
            StoreOptions.defaults(clock).withOpenMode(OpenMode.CREATE));
    RuntimeFixture f = new RuntimeFixture(BrowserRuns.SEED, clock, store, store);
    HaltingSeam seam = new HaltingSeam(CrashPoint.valueOf(args[5]), out);
    boolean atPay = args[6].equals("pay");
    if (!atPay) {
      seam.arm(); // the first order's write reaches the window first
    }
    String secret = Files.readString(Path.of(args[2])).strip();
    BrowserAdapter adapter = WebLedger.adapter(URI.create(args[1]), secret, seam);
    Run run =
        f.ratchet("worker-1", seam).start(BrowserRuns.taskWithPayment(args[4]), args[3], adapter);
    BrowserRuns.drive(
        run,
        args[4],
        () -> {
          throw new IllegalStateException("this worker placed the first order itself");
        },
        atPay ? seam::arm : () -> {});
    out.println("DONE " + run.state().phase() + " " + run.state().stopReason());
    adapter.close();
    System.exit(0);
  }
}
