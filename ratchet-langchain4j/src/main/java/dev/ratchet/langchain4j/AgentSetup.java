package dev.ratchet.langchain4j;

import dev.ratchet.model.TaskSpec;

/**
 * Builds the agent for a task: the user's chat model, prompt and goal. The worker's {@link
 * LangChain4jDriver} finds implementations by {@link java.util.ServiceLoader} (register the class
 * in {@code META-INF/services/dev.ratchet.langchain4j.AgentSetup}).
 */
public interface AgentSetup {
  /** True when this setup builds the agent for {@code task}. */
  boolean handles(TaskSpec task);

  DurableAgent agent(TaskSpec task);
}
