package dev.ratchet.jdbc;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** The seams and layering of ratchet-jdbc (ARCHITECTURE.md). */
class JdbcArchitectureTest {
  private static final JavaClasses JDBC =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.ratchet.jdbc");

  @Test
  void timeAndRandomnessComeOnlyFromTheInjectedClock() {
    noClasses()
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
        .callConstructor(java.util.Random.class)
        .orShould()
        .callMethod(java.util.UUID.class, "randomUUID")
        .check(JDBC);
  }

  @Test
  void thePublicApiDoesNotExposeInternalTypes() {
    noMethods()
        .that()
        .arePublic()
        .and()
        .areDeclaredInClassesThat()
        .resideInAPackage("dev.ratchet.jdbc")
        .should()
        .haveRawReturnType(resideInAPackage("dev.ratchet.jdbc.internal.."))
        .check(JDBC);
  }

  @Test
  void internalsDoNotCallBackIntoTheStoreFacade() {
    noClasses()
        .that()
        .resideInAPackage("dev.ratchet.jdbc.internal..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName(JdbcStore.class.getName())
        .check(JDBC);
  }

  @Test
  void mainCodeNeverUsesTheAssertKeyword() throws IOException {
    Pattern assertStatement = Pattern.compile("^\\s*assert\\s", Pattern.MULTILINE);
    List<Path> offenders;
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      offenders =
          files
              .filter(p -> p.toString().endsWith(".java"))
              .filter(p -> assertStatement.matcher(read(p)).find())
              .toList();
    }
    Assertions.assertThat(offenders).isEmpty();
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
