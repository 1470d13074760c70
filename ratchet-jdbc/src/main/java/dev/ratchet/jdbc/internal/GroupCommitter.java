package dev.ratchet.jdbc.internal;

import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Group commit: callers queue their requests and wait; one writer thread takes whatever has queued
 * (up to {@code maxBatch}) and commits it as one transaction, so many runs share one fsync. While
 * one batch is being made durable the next one gathers, so batching needs no timer.
 */
public final class GroupCommitter implements AutoCloseable {
  private final Committer committer;
  private final int maxBatch;
  private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
  private final Thread writer;
  private volatile boolean closed;

  private record Pending(CommitRequest request, CompletableFuture<Committer.Outcome> done) {}

  private static final Pending STOP = new Pending(null, null);

  public GroupCommitter(Committer committer, int maxBatch, String name) {
    this.committer = committer;
    this.maxBatch = maxBatch;
    this.writer = new Thread(this::loop, "ratchet-group-commit-" + name);
    this.writer.setDaemon(true);
    this.writer.start();
  }

  /** Queues {@code request} and waits (uninterruptibly) for the batch that carries it. */
  public CommitResult commit(CommitRequest request) {
    Pending p = new Pending(request, new CompletableFuture<>());
    queue.add(p);
    if (closed && queue.remove(p)) {
      throw Failures.unavailable("the store is closed");
    }
    return await(p.done()).resultOrThrow(true);
  }

  /** The number of requests waiting for the writer (for tests that shape batches). */
  public int queued() {
    return queue.size();
  }

  private static Committer.Outcome await(CompletableFuture<Committer.Outcome> f) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return f.get();
        } catch (InterruptedException e) {
          // The request may already be in a transaction: its outcome must be reported.
          interrupted = true;
        } catch (ExecutionException e) {
          return Committer.Outcome.failed(e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void loop() {
    List<Pending> batch = new ArrayList<>();
    boolean stop = false;
    while (!stop) {
      batch.add(take());
      queue.drainTo(batch, maxBatch - 1);
      stop = batch.remove(STOP);
      if (!batch.isEmpty()) {
        run(batch);
      }
      batch.clear();
    }
    Pending p;
    while ((p = queue.poll()) != null) {
      if (p != STOP) {
        p.done().complete(Committer.Outcome.failed(Failures.unavailable("the store is closed")));
      }
    }
  }

  private Pending take() {
    while (true) {
      try {
        return queue.take();
      } catch (InterruptedException e) {
        if (closed) {
          return STOP;
        }
      }
    }
  }

  private void run(List<Pending> batch) {
    List<CommitRequest> requests = batch.stream().map(Pending::request).toList();
    try {
      List<Committer.Outcome> outcomes = committer.commit(requests);
      for (int i = 0; i < batch.size(); i++) {
        batch.get(i).done().complete(outcomes.get(i));
      }
    } catch (Throwable t) {
      // Whatever stopped the batch (an I/O error, a simulated crash) is every member's answer.
      for (Pending p : batch) {
        p.done().complete(Committer.Outcome.failed(t));
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    queue.add(STOP);
    boolean interrupted = false;
    while (writer.isAlive()) {
      try {
        writer.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
