package dev.ratchet.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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
   * ADR 0110, in every module but the command line: nothing depends on the command line ({@code
   * dev.ratchet.cli..}, which parses and renders over the application layer), and no class uses
   * another module's {@code internal} package. {@code ownPackage} is the module's root package
   * (core's is {@code dev.ratchet}): its own {@code internal} package is its to use.
   */
  public static ArchRule moduleBoundaries(String ownPackage) {
    return noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.ratchet.cli..")
        .orShould()
        .dependOnClassesThat(anotherModulesInternals(ownPackage))
        .because(
            "the command line is a leaf and a module's internal package is its own (ADR 0110)");
  }

  /** Checks {@link #moduleBoundaries} on the main classes of the module rooted at {@code root}. */
  public static void checkModuleBoundaries(String root) {
    moduleBoundaries(root)
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(root));
  }

  /** Classes in an {@code internal} package whose owner is not {@code ownPackage}. */
  public static DescribedPredicate<JavaClass> anotherModulesInternals(String ownPackage) {
    return new DescribedPredicate<>("reside in another module's internal package") {
      @Override
      public boolean test(JavaClass c) {
        String p = c.getPackageName();
        if (!p.startsWith("dev.ratchet.")) {
          return false;
        }
        int at = (p + ".").indexOf(".internal.");
        return at >= 0 && !p.substring(0, at).equals(ownPackage);
      }
    };
  }
}
