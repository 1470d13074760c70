package dev.ratchet.ops.internal;

import dev.ratchet.ops.PgRole;
import dev.ratchet.ops.StoreSpec;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The secrets a command loaded, for the redaction of evidence (D27, D30). */
public final class LoadedSecrets {
  private LoadedSecrets() {}

  /**
   * Every secret this process loaded: the checkpoint keys, and each PostgreSQL password the
   * environment holds ({@code RATCHET_PG_PASSWORD}, {@code RATCHET_PG_<ROLE>_PASSWORD}), marked by
   * the variable's name. A password shorter than {@value SecretRegistry#FRAGMENT_BYTES} bytes
   * cannot be told from ordinary text and is not scanned for (docs/threat-model.md).
   */
  public static SecretRegistry of(KeyRing ring, Map<String, String> env) {
    SecretRegistry.Builder b = SecretRegistry.builder().add(ring);
    List<String> names = new ArrayList<>(List.of(StoreSpec.PASSWORD_ENV));
    for (PgRole r : PgRole.values()) {
      if (r != PgRole.OWNER) {
        names.add(r.passwordEnv());
      }
    }
    for (String name : names) {
      String value = env.get(name);
      byte[] bytes = value == null ? new byte[0] : value.getBytes(StandardCharsets.UTF_8);
      if (bytes.length >= SecretRegistry.FRAGMENT_BYTES) {
        b.add(name, bytes);
      }
    }
    return b.build();
  }
}
