package dev.ratchet.langchain4j;

import dev.ratchet.error.RatchetException;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.worker.DriveContext;
import dev.ratchet.worker.DriveResult;
import dev.ratchet.worker.Driver;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The {@code langchain4j} driver (SPEC D24): runs a {@link DurableAgent} on a claimed run. The
 * agent comes from the first {@link AgentSetup} that handles the task, found by {@link
 * ServiceLoader} when the worker loads the driver, or given in-process.
 */
public final class LangChain4jDriver implements Driver {
  public static final String NAME = "langchain4j";

  private final List<AgentSetup> setups;

  /** For {@link ServiceLoader}: the setups registered on the class path. */
  public LangChain4jDriver() {
    this(ServiceLoader.load(AgentSetup.class).stream().map(ServiceLoader.Provider::get).toList());
  }

  public LangChain4jDriver(List<AgentSetup> setups) {
    this.setups = List.copyOf(setups);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public DriveResult drive(DriveContext context) {
    TaskSpec task = context.task();
    AgentSetup setup =
        setups.stream()
            .filter(s -> s.handles(task))
            .findFirst()
            .orElseThrow(
                () ->
                    RatchetException.contract(
                        "task " + task.taskId() + ": no AgentSetup handles it"));
    return setup.agent(task).drive(context.run(), task, context::draining);
  }
}
