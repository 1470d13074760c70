package dev.ratchet.jdbc;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that needs the local PostgreSQL service ({@link Postgres}): required when {@code
 * CI=true} (the class fails if the server is unreachable), skipped with a printed reason elsewhere.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("postgres")
@ExtendWith(PostgresCondition.class)
public @interface RequiresPostgres {}
