package dev.ratchet.ops;

import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.RatchetException;
import dev.ratchet.mcp.McpToolServer;
import dev.ratchet.mcp.RunAccess;
import dev.ratchet.mcp.ServerSettings;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.InboxItem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/** One run an MCP server serves: its adapter, its lease-holding run and its tools. */
public record McpServed(String id, EnvironmentAdapter adapter, McpRun run, McpToolServer tools)
    implements AutoCloseable {

  /** Starts or resumes run {@code id} of {@code tf} (recovery first) and builds its tools. */
  public static McpServed open(
      Services services,
      Session session,
      LiveRatchet ratchet,
      TaskFile tf,
      Path taskFile,
      String id,
      Duration ttl,
      CrashSeam seam,
      ServerSettings serverSettings,
      Consumer<String> log) {
    boolean exists = !session.store().runs(id).isEmpty();
    if (exists && !session.find(id).taskId().equals(tf.task().taskId())) {
      throw RatchetException.contract(
          "--run-id: run '" + id + "' belongs to another task than " + taskFile);
    }
    EnvironmentAdapter adapter = Session.adapter(services, tf, !exists, seam);
    McpRun run = null;
    try {
      if (!exists) {
        TaskRegistry.record(session.home(), id, tf);
      }
      run = new McpRun(ratchet, tf, id, adapter, ttl, services, log);
      run.open(exists);
      McpToolServer tools =
          new McpToolServer(
              access(run, session, services, tf.task().taskId(), id),
              tf.task(),
              adapter,
              serverSettings,
              services.entropy());
      return new McpServed(id, adapter, run, tools);
    } catch (RuntimeException e) {
      if (run != null) {
        run.close();
      }
      closeAdapter(adapter);
      throw e;
    }
  }

  /**
   * The run as the tools reach it, with what durable tasks need (ADR 0082): whether the lease is
   * still unexpired, and the run's inbox (a task's write is tried again when a decision arrives).
   */
  private static RunAccess access(
      McpRun run, Session session, Services services, String taskId, String runId) {
    return new RunAccess() {
      @Override
      public Run current() {
        return run.current();
      }

      @Override
      public Run reacquire() {
        return run.reacquire();
      }

      @Override
      public boolean leaseLive() {
        return run.current().lease().expiresAt().isAfter(services.clock().instant());
      }

      @Override
      public List<String> decisions() {
        return session.store().inbox(taskId, runId).stream().map(InboxItem::nonce).toList();
      }
    };
  }

  @Override
  public void close() {
    tools.close();
    run.close();
    closeAdapter(adapter);
  }

  private static void closeAdapter(EnvironmentAdapter adapter) {
    if (adapter instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception e) {
        // Closing an adapter changes nothing it committed.
      }
    }
  }
}
