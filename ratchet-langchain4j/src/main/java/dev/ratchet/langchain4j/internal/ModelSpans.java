package dev.ratchet.langchain4j.internal;

import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The span of a model call, by OpenTelemetry's GenAI semantic conventions (docs/telemetry.md):
 * named {@code chat {gen_ai.request.model}}, with the operation, the provider and the requested
 * model; never a message.
 */
public final class ModelSpans {
  private ModelSpans() {}

  /** The convention's span name for a chat call to {@code model}. */
  public static String name(ChatModel model) {
    String m = requestModel(model);
    return m == null ? "chat" : "chat " + m;
  }

  /** {@code gen_ai.operation.name}, {@code gen_ai.provider.name}, {@code gen_ai.request.model}. */
  public static Map<String, String> attributes(ChatModel model) {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("gen_ai.operation.name", "chat");
    a.put("gen_ai.provider.name", provider(model.provider()));
    String m = requestModel(model);
    if (m != null) {
      a.put("gen_ai.request.model", m);
    }
    return a;
  }

  /** The convention's well-known provider names; any other provider by its lower-case name. */
  static String provider(ModelProvider p) {
    if (p == null) {
      return "other";
    }
    return switch (p) {
      case OPEN_AI -> "openai";
      case ANTHROPIC -> "anthropic";
      case AZURE_OPEN_AI -> "azure.ai.openai";
      case AMAZON_BEDROCK -> "aws.bedrock";
      case GOOGLE_AI_GEMINI -> "gcp.gemini";
      case GOOGLE_GENAI -> "gcp.gen_ai";
      case GOOGLE_VERTEX_AI_GEMINI, GOOGLE_VERTEX_AI_ANTHROPIC -> "gcp.vertex_ai";
      case MISTRAL_AI -> "mistral_ai";
      case WATSONX -> "ibm.watsonx.ai";
      case COHERE -> "cohere";
      default -> p.name().toLowerCase(Locale.ROOT);
    };
  }

  private static String requestModel(ChatModel model) {
    ChatRequestParameters p = model.defaultRequestParameters();
    return p == null ? null : p.modelName();
  }
}
