package dev.ratchet.langchain4j.arch;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ratchet.Run;
import dev.ratchet.testkit.ArchRules;
import org.junit.jupiter.api.Test;

/** SPEC D32: the agent learns outcomes from values and {@code Run.outcomeOf}, not the trace. */
class LangChain4jOutcomesTest {
  @Test
  void theAgentReadsNoTraceToDecideAnOutcome() {
    ArchRules.decideNoOutcomeFromTheTrace("dev.ratchet.langchain4j.DurableAgent")
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.ratchet.langchain4j"));
  }

  /** A driver that scans the trace, as DurableAgent did before D32: the rule must catch it. */
  static final class TraceScanner {
    static boolean executed(Run run, String actionId) {
      return run.trace().stream()
          .anyMatch(
              e -> actionId.equals(e.actionId()) && "executed".equals(e.outcome().wireName()));
    }
  }

  @Test
  void theRuleCatchesADriverThatScansTheTraceAndANameThatMatchesNothing() {
    JavaClasses scanner = new ClassFileImporter().importClasses(TraceScanner.class);
    assertThatThrownBy(
            () ->
                ArchRules.decideNoOutcomeFromTheTrace(TraceScanner.class.getName()).check(scanner))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("trace()");
    assertThatThrownBy(
            () -> ArchRules.decideNoOutcomeFromTheTrace("dev.ratchet.NoSuchDriver").check(scanner))
        .isInstanceOf(AssertionError.class);
  }
}
