package dev.ratchet.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The ids of docs/rules.md that a test proves. {@code RulesCoverageTest} checks that every id is
 * cited by some test and that no test cites an unknown id.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Rules {
  String[] value();
}
