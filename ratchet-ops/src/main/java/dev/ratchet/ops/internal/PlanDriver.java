package dev.ratchet.ops.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.AdapterRegistry;
import dev.ratchet.ops.Driver;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.seam.Seams;
import dev.ratchet.worker.DriveContext;
import dev.ratchet.worker.DriveResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The first worker driver (SPEC D24): the task file's plan, followed exactly as {@code ratchet run}
 * and {@code resume} follow it ({@link Driver}). The scheduling row's task reference is the path of
 * the task file recorded in the Ratchet home (for a submitted run, the copy the worker wrote after
 * verifying the operator's signature, ADR 0061). Registered through {@code META-INF/services} here,
 * since the plan driver lives in the CLI.
 */
public final class PlanDriver implements dev.ratchet.worker.Driver {
  public static final String NAME = "plan";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public DriveResult drive(DriveContext context) {
    // The copy this worker's opener just verified, when it handed one (no second parse).
    TaskFile tf = VerifiedTasks.HANDED.find(context.taskRef());
    if (tf == null) {
      tf = read(Path.of(context.taskRef()));
    }
    PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
    String runId = context.run().state().runId();
    Driver.Result r =
        new Driver(
                context.run(),
                tf.plan(),
                line -> err.println("run " + runId + ": " + line),
                context::draining)
            .drive(context.run().recovery());
    return switch (r.stop()) {
      case ENDED -> DriveResult.ended(r.summary());
      case FROZEN -> DriveResult.waiting("needs a reviewer's decision", null, r.refused());
      case AWAITING_APPROVAL -> DriveResult.waiting("awaiting approval", null, r.refused());
      case YIELDED -> DriveResult.yielded("stopped between steps");
      case PAUSED -> DriveResult.waiting("paused by an operator", null);
    };
  }

  private static TaskFile read(Path file) {
    try {
      return TaskFile.parse(
          Files.readAllBytes(file),
          file.getParent(),
          AdapterRegistry.discover(Seams.systemClock(), Seams.secureEntropy()),
          "task file " + file);
    } catch (IOException e) {
      throw RatchetException.contract("task file " + file + " cannot be read: " + e.getMessage());
    }
  }
}
