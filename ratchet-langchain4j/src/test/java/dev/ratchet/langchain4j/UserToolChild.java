package dev.ratchet.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.ArgumentSchema;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.worker.DriveResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * One worker JVM of {@link UserToolCrashTest}: {@code UserToolChild <dir> <ledger-uri> <account>
 * <receipted|unreceipted> <attempt>}. The model orders sku-1 and calls the user tool {@code
 * invoice} in one response, then checks the account and finishes. On attempt 1 the tool performs
 * its effect (a file under {@code dir}), prints {@code CRASH inside} and waits for its SIGKILL.
 * Attempt 2 resumes and prints {@code ENDED <phase> <stop reason>}.
 */
public final class UserToolChild {
  static final String TOOL = "invoice";
  private static final long WAIT_FOR_KILL_MS = 20_000;

  private UserToolChild() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    URI ledger = URI.create(args[1]);
    String account = args[2];
    boolean receipted = args[3].equals("receipted");
    int attempt = Integer.parseInt(args[4]);
    Instant base = Instant.parse("2026-07-18T09:00:00Z");
    ManualClock clock =
        new ManualClock(
            attempt == 1 ? base : base.plus(RuntimeFixture.LEASE_TTL.multipliedBy(attempt)));
    try (JdbcStore store =
        JdbcStore.open(
            Database.sqlite(dir.resolve("store.db")),
            StoreOptions.defaults(clock).withOpenMode(OpenMode.CREATE))) {
      RuntimeFixture f = new RuntimeFixture(7, clock, store, store);
      ArgumentSchema schema =
          ArgumentSchema.builder().text("customer", 64, "who is invoiced").build();
      UserTools tools =
          UserTools.on(
                  LedgerApi.adapter(
                      ledger, LedgerApi.clientSecret(dir.resolve("ledger.db.client-secret"))))
              .clock(clock);
      Path effects = dir.resolve("effects");
      Files.createDirectories(effects);
      Runnable die = attempt == 1 ? UserToolChild::dieInside : () -> {};
      tools =
          receipted
              ? tools.receipted(TOOL, schema, new FileInvoices(effects, die))
              : tools.unreceipted(
                  TOOL,
                  schema,
                  a -> {
                    append(dir.resolve("deploys"), "deployed\n");
                    die.run();
                    return JsonObject.builder().put("deployed", true).build();
                  });
      EnvironmentAdapter adapter = tools.adapter();
      Ratchet ratchet = f.ratchet("worker-" + attempt);
      TaskSpec task = task(account);
      DurableAgent agent =
          DurableAgent.builder(new Model(account, dir.resolve("calls")))
              .goal("order sku-1 for " + account + " and invoice it")
              .maxTurns(6)
              .build();
      try (Run run =
          attempt == 1
              ? ratchet.start(task, "tool-run", adapter)
              : ratchet.resume(task, "tool-run", adapter)) {
        DriveResult r = agent.drive(run, task);
        System.out.println(
            AgentChild.ENDED
                + run.state().phase().wireName()
                + " "
                + run.state().stopReason()
                + " "
                + r.kind());
        System.out.flush();
      }
    }
  }

  static TaskSpec task(String account) {
    JsonObject expected =
        JsonObject.builder()
            .put("orders", 1)
            .put("ordered_cents", 100)
            .put("paid_cents", 0)
            .build();
    return new TaskSpec(
        "tool-orders",
        "v1",
        "ledger-policy",
        "v1",
        LedgerApi.NAMESPACE,
        Set.of("ledger.write", "ledger.read", "ledger.verify", UserTools.WRITE_PERMISSION),
        Set.of("create_order", "check_account", TOOL),
        Set.of(account, TOOL),
        Set.of(),
        new Budgets(500, 100, 86_400_000L, 1_000_000),
        JsonObject.EMPTY,
        JsonObject.builder()
            .put("expect", JsonObject.builder().put(account, expected).build())
            .build());
  }

  private static void dieInside() {
    System.out.println(AgentChild.CRASH + "inside");
    System.out.flush();
    try {
      Thread.sleep(WAIT_FOR_KILL_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Runtime.getRuntime().halt(137);
  }

  static void append(Path file, String line) {
    try {
      Files.writeString(
          file,
          line,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND,
          StandardOpenOption.SYNC);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A receipted tool: the invoice and its record are one file, moved into place atomically. */
  private record FileInvoices(Path dir, Runnable die) implements ReceiptedTool {
    @Override
    public String perform(String key, JsonObject arguments, Function<JsonObject, String> record) {
      Optional<String> earlier = lookup(key);
      if (earlier.isPresent()) {
        return earlier.get();
      }
      String text = record.apply(JsonObject.builder().put("invoiced", true).build());
      try {
        Path tmp = Files.writeString(dir.resolve(name(key) + ".tmp"), text);
        Files.move(tmp, dir.resolve(name(key)), StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      die.run();
      return text;
    }

    @Override
    public Optional<String> lookup(String key) {
      try {
        Path p = dir.resolve(name(key));
        return Files.exists(p) ? Optional.of(Files.readString(p)) : Optional.empty();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static String name(String key) {
      return dev.ratchet.json.Canonical.sha256Hex(key);
    }
  }

  /** Orders and invoices in one response, then checks, then finishes; counts its calls. */
  private record Model(String account, Path calls) implements ChatModel {
    @Override
    public ChatResponse doChat(ChatRequest request) {
      List<ChatMessage> messages = request.messages();
      String decision =
          answered(messages, "check_account")
              ? "finish"
              : answered(messages, TOOL) ? "check" : "decide";
      append(calls, decision + "\n");
      String acct = "{\"account\":\"" + account + "\"}";
      AiMessage ai =
          switch (decision) {
            case "finish" -> AiMessage.from("done");
            case "check" -> AiMessage.from(List.of(call("c-check", "check_account", acct)));
            default ->
                AiMessage.from(
                    List.of(
                        call(
                            "c-order",
                            "create_order",
                            "{\"account\":\""
                                + account
                                + "\",\"sku\":\"sku-1\",\"quantity\":1,\"unit_price_cents\":100}"),
                        call("c-tool", TOOL, "{\"customer\":\"" + account + "\"}")));
          };
      return ChatResponse.builder()
          .aiMessage(ai)
          .id("resp-" + decision)
          .modelName("scripted-tools")
          .tokenUsage(new TokenUsage(10, 2))
          .build();
    }

    private static boolean answered(List<ChatMessage> messages, String tool) {
      return messages.stream()
          .anyMatch(m -> m instanceof ToolExecutionResultMessage t && t.toolName().equals(tool));
    }

    private static ToolExecutionRequest call(String id, String name, String args) {
      return ToolExecutionRequest.builder().id(id).name(name).arguments(args).build();
    }
  }
}
