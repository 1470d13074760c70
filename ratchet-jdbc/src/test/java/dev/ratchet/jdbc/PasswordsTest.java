package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Issue 14: a database password is never echoed, in a URL's user info or a parameter. */
class PasswordsTest {
  @Test
  void userInfoPasswordsAreMasked() {
    assertThat(Passwords.redact("jdbc:postgresql://alice:S3cret@db.example:5432/ratchet"))
        .isEqualTo("jdbc:postgresql://alice:***@db.example:5432/ratchet");
    assertThat(Passwords.redact("cannot connect to postgresql://bob:p%40ss@h/db: refused"))
        .isEqualTo("cannot connect to postgresql://bob:***@h/db: refused");
  }

  @Test
  void passwordParametersAreMaskedWhateverTheirPlaceOrCase() {
    assertThat(Passwords.redact("jdbc:postgresql://h/db?password=S3cret"))
        .isEqualTo("jdbc:postgresql://h/db?password=***");
    assertThat(Passwords.redact("jdbc:postgresql://h/db?user=a&PASSWORD=S3cret&ssl=true"))
        .isEqualTo("jdbc:postgresql://h/db?user=a&PASSWORD=***&ssl=true");
    assertThat(Passwords.redact("url jdbc:postgresql://u:x@h/db?password=y&sslpassword=z"))
        .doesNotContain(":x@")
        .doesNotContain("=y")
        .contains("sslpassword=***");
  }

  @Test
  void textWithoutPasswordsIsUnchanged() {
    String t = "jdbc:postgresql://127.0.0.1:5432/test?user=alice schema ratchet as alice";
    assertThat(Passwords.redact(t)).isEqualTo(t);
    assertThat(Passwords.redact(null)).isNull();
  }

  @Test
  void aDatabaseNeverRendersItsPassword() {
    Database db =
        Database.postgres("jdbc:postgresql://alice:S3cret@h:5432/db?password=P2", "a", "P3");
    assertThat(db.toString()).doesNotContain("S3cret").doesNotContain("P2").doesNotContain("P3");
  }
}
