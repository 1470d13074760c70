package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.cli.Main;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.PostgresAccess;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.ops.ConsoleLauncher;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.KeyFiles;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Settings;
import dev.ratchet.ops.StoreFactories;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.ops.Stores;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.Seams;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.testkit.LocalPostgresSchema;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * D26 on PostgreSQL: the console reads as the inspector role and delivers a signed approval as the
 * operator role (their logins from the home's {@code ratchet.properties}, as {@code db init} grants
 * them); neither login can write a table directly. Required when {@code CI=true}, skipped with a
 * printed reason elsewhere.
 */
class ConsolePostgresTest {
  private static final String INSPECTOR = "console_inspector";
  private static final String OPERATOR = "console_operator";
  private static final String WORKER = "console_worker";

  @RegisterExtension final LocalPostgresSchema pg = new LocalPostgresSchema("console_pg");

  @TempDir Path dir;

  /** Every store the console and the commands opened: mode and login (null: the owner). */
  private final List<String> opened = Collections.synchronizedList(new ArrayList<>());

  @Test
  void theConsoleReadsAsTheInspectorDeliversAsTheOperatorAndNeitherWritesATable() throws Exception {
    // db init's work: the schema migrated by the owner, the three role logins granted.
    Database owner =
        Database.postgres(LocalPostgresSchema.URL, LocalPostgresSchema.ADMIN, null)
            .withSchema(pg.schema());
    JdbcStore.open(owner, StoreOptions.defaults(Clock.systemUTC()).withOpenMode(OpenMode.CREATE))
        .close();
    PostgresAccess.ensureLoginRole(owner, WORKER);
    PostgresAccess.grantWorker(owner, WORKER);
    PostgresAccess.ensureLoginRole(owner, OPERATOR);
    PostgresAccess.grantOperator(owner, OPERATOR);
    PostgresAccess.ensureLoginRole(owner, INSPECTOR);
    PostgresAccess.grantInspector(owner, INSPECTOR);

    Path home = dir.resolve(".ratchet");
    Entropy entropy = Seams.secureEntropy();
    KeyFiles.create(home.resolve("keys/ckpt-1.key"), entropy);
    KeyFiles.activate(home.resolve("keys"), "ckpt-1");
    Path alice = home.resolve("identities/approver/alice.key");
    KeyConfig.install(
        home.resolve("approvers"), KeyConfig.createIdentity(alice, "alice", entropy).trusted());
    Files.writeString(
        home.resolve("ratchet.properties"),
        "pg.worker-user="
            + WORKER
            + "\npg.operator-user="
            + OPERATOR
            + "\npg.inspector-user="
            + INSPECTOR
            + "\n");
    Services std = Services.standard();
    Services services = new Services(factory(), std.adapters(), std.clock(), std.entropy());

    // The run (as the worker login) waits for approval of its write_file.
    String run =
        cli(
            services,
            home,
            "run",
            task().toString(),
            "--store",
            LocalPostgresSchema.URL,
            "--run-id",
            "p1");
    assertThat(run).contains("waiting for approval");
    assertThat(opened).isNotEmpty().allMatch(o -> o.endsWith(" as " + WORKER));
    opened.clear();

    Settings settings =
        new Settings(home, LocalPostgresSchema.URL, null, List.of(), null, null, null);
    // Alice's key stays with the test, where her browser would hold it.
    SigningKey aliceKey = KeyConfig.signer(alice, null, settings.resolvedHome(), Role.APPROVER);
    try (ConsoleServer console =
        ConsoleServer.start(
            new ConsoleLauncher.Request(
                services,
                settings,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                null,
                ConsoleLauncher.Request.DEFAULT_SESSION_TTL,
                ConsoleLauncher.Request.DEFAULT_PREVIEW_TTL,
                new PrintWriter(new StringWriter())),
            null)) {
      String base = "http://127.0.0.1:" + console.address().getPort();
      String token = Sessions.login(console);
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> runs = get(http, base + "/api/runs", token);
      assertThat(runs.statusCode()).as(runs.body()).isEqualTo(200);
      assertThat(runs.body()).contains("\"run_id\":\"p1\"").contains("\"for\":\"approval\"");
      String preview =
          http.send(
                  HttpRequest.newBuilder(URI.create(base + "/runs/p1/approve"))
                      .header("Authorization", "Bearer " + token)
                      .header("Cookie", Actions.SIGNER_COOKIE + "=" + aliceKey.keyId())
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      Matcher payload = Pattern.compile("data-payload=\"([A-Za-z0-9_-]+)\"").matcher(preview);
      assertThat(payload.find()).as(preview).isTrue();
      assertThat(opened).containsOnly("READ_ONLY as " + INSPECTOR);
      opened.clear();

      HttpResponse<String> signed =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/runs/p1/approve"))
                  .header("Authorization", "Bearer " + token)
                  .header("Content-Type", "application/x-www-form-urlencoded")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "preview="
                              + field(preview, "preview")
                              + "&csrf="
                              + field(preview, "csrf")
                              + "&key_id="
                              + aliceKey.keyId()
                              + "&signature="
                              + aliceKey.sign(
                                  java.util.Base64.getUrlDecoder().decode(payload.group(1)))))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(signed.statusCode()).as(signed.body()).isEqualTo(303);
      assertThat(opened).containsExactly("MUST_EXIST as " + OPERATOR);
      assertThat(inbox("p1")).as("delivered through ratchet_deliver").isEqualTo(1);
    }

    // Neither console login writes a table directly: only the owner holds INSERT/UPDATE/DELETE.
    for (String login : List.of(INSPECTOR, OPERATOR)) {
      try (Connection c = DriverManager.getConnection(LocalPostgresSchema.URL, login, null);
          Statement s = c.createStatement()) {
        assertThatThrownBy(() -> s.executeUpdate("DELETE FROM " + pg.schema() + ".ratchet_inbox"))
            .as(login)
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("permission denied");
        assertThatThrownBy(
                () ->
                    s.executeUpdate(
                        "INSERT INTO "
                            + pg.schema()
                            + ".ratchet_inbox (task_id, run_id, nonce, position, kind, envelope)"
                            + " VALUES ('repair-greeting', 'p1', 'forged', 9, 'APPROVAL', '{}')"))
            .as(login)
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("permission denied");
      }
    }
    assertThat(inbox("p1")).isEqualTo(1);
  }

  /** The standard factory's choices, in this test's schema, recording who opened what. */
  private StoreFactory factory() {
    return (content, mark, mode, clock, seam, runs) -> {
      opened.add(mode + " as " + content.user());
      Database db =
          content.user() == null
              ? Database.postgres(LocalPostgresSchema.URL, LocalPostgresSchema.ADMIN, null)
              : StoreFactories.database(content);
      OpenMode open =
          mode == StoreFactory.Mode.READ_ONLY ? OpenMode.READ_ONLY : OpenMode.MUST_EXIST;
      JdbcStore store =
          JdbcStore.open(
              db.withSchema(pg.schema()),
              StoreOptions.defaults(clock).withOpenMode(open).withCrashSeam(seam));
      return new Stores(store, store, store::close);
    };
  }

  private Path task() throws Exception {
    JsonObject json =
        (JsonObject)
            Json.parse(Files.readString(Path.of("../examples/workspace/repair-greeting.json")));
    JsonObject task = (JsonObject) json.get("task").orElseThrow();
    json =
        json.with(
                "task", task.with("approval_required", JsonArray.of(new JsonString("write_file"))))
            .with(
                "connect",
                JsonObject.builder().put("directory", dir.resolve("ws").toString()).build());
    Path f = dir.resolve("repair.json");
    Files.writeString(f, Canonical.string(json));
    return f;
  }

  private static String cli(Services services, Path home, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--home");
    all.add(home.toString());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
    Main.execute(all.toArray(String[]::new), p, p, services);
    return out.toString(StandardCharsets.UTF_8);
  }

  private static HttpResponse<String> get(HttpClient http, String url, String token)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String field(String html, String name) {
    Matcher m = Pattern.compile("name=\"" + name + "\" value=\"([^\"]+)\"").matcher(html);
    assertThat(m.find()).as(name + " in " + html).isTrue();
    return m.group(1);
  }

  private int inbox(String run) throws SQLException {
    try (Connection c =
            DriverManager.getConnection(LocalPostgresSchema.URL, LocalPostgresSchema.ADMIN, null);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM "
                    + pg.schema()
                    + ".ratchet_inbox WHERE run_id = '"
                    + run
                    + "'")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
