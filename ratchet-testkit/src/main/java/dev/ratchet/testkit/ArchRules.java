package dev.ratchet.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;

/**
 * Architecture rules every module outside the core checks on its main code (the core, which the
 * testkit depends on, writes its own, with its seams as the one exception).
 */
public final class ArchRules {
  private ArchRules() {}

  /**
   * Time and randomness come only from the injected seams (a clock, an entropy source), so tests
   * can pin them and a replay cannot differ from the run it replays.
   */
  public static ArchRule timeAndRandomnessOnlyFromTheSeams() {
    return noClasses()
        .should()
        .callMethod(java.time.Instant.class, "now")
        .orShould()
        .callMethod(java.time.Clock.class, "systemUTC")
        .orShould()
        .callMethod(java.time.InstantSource.class, "system")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(java.util.UUID.class, "randomUUID")
        .orShould()
        .callConstructor(java.util.Random.class)
        .orShould()
        .callConstructor(java.security.SecureRandom.class)
        .because("time and randomness are injected (Clock, Entropy) so runs can be replayed");
  }

  /**
   * Core's {@code internal} package is core's own: other modules reach the runtime through the
   * front door ({@code Ratchet}, {@code Run}) and the SPIs only.
   */
  public static ArchRule coreInternalsStayInCore() {
    return noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.ratchet.internal..")
        .because("core's internal package is reached only through its front door");
  }

  /**
   * SPEC D32: the named drivers learn what became of an action from the step's value or {@code
   * Run.outcomeOf}, never by reading {@code Run.trace()} (nested classes and lambdas included).
   * Fails when none of the named classes exists, so a rename cannot make it pass vacuously.
   */
  public static ArchRule decideNoOutcomeFromTheTrace(String... driverClassNames) {
    java.util.List<String> names = java.util.List.of(driverClassNames);
    return noClasses()
        .that(
            com.tngtech.archunit.base.DescribedPredicate.describe(
                "are " + names,
                (com.tngtech.archunit.core.domain.JavaClass c) ->
                    names.stream()
                        .anyMatch(n -> c.getName().equals(n) || c.getName().startsWith(n + "$"))))
        .should()
        .callMethod(dev.ratchet.Run.class, "trace")
        .allowEmptyShould(false)
        .because("no caller scans the trace to learn an outcome (SPEC D32): use Run.outcomeOf");
  }
}
