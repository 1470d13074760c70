package dev.ratchet.mcp.http;

import dev.ratchet.Run;
import dev.ratchet.error.RatchetException;
import dev.ratchet.mcp.RunAccess;
import java.util.List;
import java.util.function.Supplier;

/**
 * A run held by the test for the server's whole life: no second lease is ever taken, and the
 * decisions in its inbox are whatever {@code decisions} reads.
 */
record HeldRun(Run run, Supplier<List<String>> inbox) implements RunAccess {
  HeldRun(Run run) {
    this(run, List::of);
  }

  @Override
  public Run current() {
    return run;
  }

  @Override
  public Run reacquire() {
    throw RatchetException.contract("no second lease in this test");
  }

  @Override
  public List<String> decisions() {
    return inbox.get();
  }
}
