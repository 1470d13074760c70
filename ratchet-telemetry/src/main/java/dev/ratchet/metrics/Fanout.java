package dev.ratchet.metrics;

import dev.ratchet.outcome.Recovery;
import dev.ratchet.telemetry.ExternalCall;
import dev.ratchet.telemetry.RatchetObserver;
import dev.ratchet.telemetry.Step;
import java.util.List;

/** Several observers as one (meters and spans side by side). */
public final class Fanout implements RatchetObserver {
  private final List<RatchetObserver> all;

  private Fanout(List<RatchetObserver> all) {
    this.all = all;
  }

  public static RatchetObserver of(RatchetObserver... observers) {
    return new Fanout(List.of(observers));
  }

  @Override
  public void step(Step step) {
    all.forEach(o -> o.step(step));
  }

  @Override
  public void called(ExternalCall call) {
    all.forEach(o -> o.called(call));
  }

  @Override
  public void traced(String runId, String actionId, String outcome) {
    all.forEach(o -> o.traced(runId, actionId, outcome));
  }

  @Override
  public void recovered(String runId, Recovery.Found found, Recovery.Did did) {
    all.forEach(o -> o.recovered(runId, found, did));
  }

  @Override
  public void frozen(String runId, String reason) {
    all.forEach(o -> o.frozen(runId, reason));
  }

  @Override
  public void fenced(String runId) {
    all.forEach(o -> o.fenced(runId));
  }

  @Override
  public void inboxRefused(String runId, String reason) {
    all.forEach(o -> o.inboxRefused(runId, reason));
  }

  @Override
  public void leaseLost(String runId) {
    all.forEach(o -> o.leaseLost(runId));
  }
}
