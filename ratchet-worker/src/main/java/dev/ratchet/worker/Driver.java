package dev.ratchet.worker;

/**
 * What moves a claimed run forward (SPEC D24): the task file's plan, a LangChain4j agent loop, or
 * any other loop that proposes and executes actions. Found by {@link java.util.ServiceLoader}
 * (register the class in {@code META-INF/services/dev.ratchet.worker.Driver}) and selected by
 * {@link #name()} from the run's scheduling row; also callable in-process without a worker.
 *
 * <p>A driver holds no lease of its own: the worker claims the run, recovers it, hands the open
 * {@link dev.ratchet.Run} over in the context, and renews and releases the lease around the call. A
 * driver never waits for a human on a thread: it returns {@link DriveResult#waiting} and the worker
 * releases the run until the inbox item or the wake-up time arrives.
 */
public interface Driver {

  /** The name a scheduling row selects this driver by, e.g. {@code plan} or {@code langchain4j}. */
  String name();

  /**
   * Drives the run until it ends, must wait, or {@link DriveContext#draining()} asks it to stop
   * after the current step. Exceptions it throws are the run's errors: the worker classifies them
   * (a permanent refusal ends the run {@code failed}, a store error backs off and retries).
   */
  DriveResult drive(DriveContext context);
}
