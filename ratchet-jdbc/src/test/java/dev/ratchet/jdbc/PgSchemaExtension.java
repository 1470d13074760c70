package dev.ratchet.jdbc;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's own {@link PgSchema}: created before its first test (after {@link
 * RequiresPostgres} let the class run) and dropped after its last. Register it as
 * {@code @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.migrated();}.
 */
final class PgSchemaExtension implements BeforeAllCallback, AfterAllCallback {
  private final boolean pinClock;
  private PgSchema schema;

  private PgSchemaExtension(boolean pinClock) {
    this.pinClock = pinClock;
  }

  /** A migrated schema with worker and inspector grants, on the real database clock. */
  static PgSchemaExtension migrated() {
    return new PgSchemaExtension(false);
  }

  /** The same with the database clock pinned to the test's manual clock ({@link PgSchema}). */
  static PgSchemaExtension pinnedClock() {
    return new PgSchemaExtension(true);
  }

  /** The schema, between the class's first and last test. */
  PgSchema get() {
    if (schema == null) {
      throw new IllegalStateException("the test class's schema exists only while its tests run");
    }
    return schema;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    schema = pinClock ? PgSchema.create().pinClock() : PgSchema.create();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (schema != null) {
      schema.close();
      schema = null;
    }
  }
}
