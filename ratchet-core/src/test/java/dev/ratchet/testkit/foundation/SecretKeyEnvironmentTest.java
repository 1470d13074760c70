package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.sign.SecretKeys;
import dev.ratchet.testkit.LeakScan;
import dev.ratchet.testkit.Rules;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Checkpoint keys from environment variables (SPEC D15), loaded in a child JVM. */
class SecretKeyEnvironmentTest {
  private final Map<String, byte[]> secrets = new LinkedHashMap<>();

  private byte[] material(String name, long seed, int length) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    secrets.put(name, b.clone());
    return b;
  }

  @Test
  @Rules("R1.4-key-length")
  void keysLoadFromEnvironmentVariablesInAChildProcess() throws Exception {
    byte[] key = material("env-key", 71, 32);
    byte[] shortKey = material("env-short", 72, 16);
    Map<String, String> env = new LinkedHashMap<>();
    env.put("RATCHET_PROBE_HEX", "hex:" + HexFormat.of().formatHex(key));
    env.put("RATCHET_PROBE_B64", "base64:" + Base64.getEncoder().encodeToString(key) + "\n");
    env.put("RATCHET_PROBE_RAW", HexFormat.of().formatHex(key));
    env.put("RATCHET_PROBE_SHORT", "hex:" + HexFormat.of().formatHex(shortKey));
    List<String> lines =
        runProbe(
            env,
            "RATCHET_PROBE_HEX",
            "RATCHET_PROBE_B64",
            "RATCHET_PROBE_RAW",
            "RATCHET_PROBE_SHORT",
            "RATCHET_PROBE_UNSET");
    String mac = SigningTest.jdkHmac(key, EnvKeyProbe.MESSAGE);
    assertThat(lines)
        .containsExactly(
            "OK RATCHET_PROBE_HEX " + mac + " SecretKey[id=env-key]",
            "OK RATCHET_PROBE_B64 " + mac + " SecretKey[id=env-key]",
            "ERR RATCHET_PROBE_RAW CONTRACT environment variable RATCHET_PROBE_RAW: must start with"
                + " 'hex:' or 'base64:'",
            "ERR RATCHET_PROBE_SHORT CONTRACT key 'env-key': key material must be at least 32 bytes",
            "ERR RATCHET_PROBE_UNSET CONTRACT environment variable RATCHET_PROBE_UNSET is not set");
    LeakScan scan = LeakScan.of(secrets);
    scan.check("probe output", lines);
    assertThat(scan.findings()).isEmpty();
  }

  private static List<String> runProbe(Map<String, String> env, String... variables)
      throws IOException, InterruptedException, URISyntaxException {
    String classpath =
        location(SecretKeys.class) + java.io.File.pathSeparator + location(EnvKeyProbe.class);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(classpath);
    command.add(EnvKeyProbe.class.getName());
    command.addAll(List.of(variables));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().keySet().removeIf(k -> k.startsWith("RATCHET_PROBE_"));
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("probe did not finish");
    }
    assertThat(p.exitValue()).as("probe output: %s", out).isZero();
    // Only the probe's own lines: a JVM may add notices such as "Picked up JAVA_TOOL_OPTIONS".
    return out.lines().filter(l -> l.startsWith("OK ") || l.startsWith("ERR ")).toList();
  }

  private static String location(Class<?> c) throws URISyntaxException {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
