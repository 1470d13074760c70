package dev.ratchet.browser.internal;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.ArgumentSchema;
import dev.ratchet.adapter.EffectKind;
import dev.ratchet.browser.PageForm;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The browser's action kinds and their arguments. Reads: {@code open_page {path}}, {@code read_page
 * {path, elements}}. Writes: {@code fill_and_submit {path, form, fields}} and {@code click {path,
 * form}} on a receipted form, {@code fill_and_submit_unreceipted {path, form, fields}} on an
 * unreceipted one. A write's target is its form id, so the task's targets list the forms it allows;
 * a read's target is the URL prefix its path falls under.
 */
public final class BrowserActions {
  public static final String OPEN_PAGE = "open_page";
  public static final String READ_PAGE = "read_page";
  public static final String FILL_AND_SUBMIT = "fill_and_submit";
  public static final String CLICK = "click";
  public static final String FILL_AND_SUBMIT_UNRECEIPTED = "fill_and_submit_unreceipted";

  private static final Pattern ID = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,99}");
  private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9._~%/-]{0,500}");

  private BrowserActions() {}

  /** A write's parsed arguments. */
  public record Write(String path, PageForm form, Map<String, String> fields) {}

  public static List<ActionSpec> specs(Map<String, PageForm> forms, List<String> prefixes) {
    return List.of(
        ActionSpec.of(
            OPEN_PAGE,
            ActionClass.READ,
            "browser.read",
            "read_only",
            (a, p) -> read(a, p, false, prefixes),
            a -> prefix(path(a), prefixes)),
        ActionSpec.of(
            READ_PAGE,
            ActionClass.READ,
            "browser.read",
            "read_only",
            (a, p) -> read(a, p, true, prefixes),
            a -> prefix(path(a), prefixes)),
        write(FILL_AND_SUBMIT, forms, true, true),
        write(CLICK, forms, true, false),
        unreceipted(forms));
  }

  private static ActionSpec write(
      String kind, Map<String, PageForm> forms, boolean receipted, boolean withFields) {
    return ActionSpec.of(
        kind,
        ActionClass.WRITE,
        "browser.write",
        "irreversible_write",
        (a, p) -> parseWrite(a, p, forms, receipted, withFields),
        a -> formId(a));
  }

  private static ActionSpec unreceipted(Map<String, PageForm> forms) {
    ActionSpec base = write(FILL_AND_SUBMIT_UNRECEIPTED, forms, false, true);
    return new ActionSpec() {
      @Override
      public String kind() {
        return base.kind();
      }

      @Override
      public ActionClass actionClass() {
        return base.actionClass();
      }

      @Override
      public String permission() {
        return base.permission();
      }

      @Override
      public String risk() {
        return base.risk();
      }

      @Override
      public void validateArguments(JsonObject a, String p) {
        base.validateArguments(a, p);
      }

      @Override
      public String target(JsonObject a) {
        return base.target(a);
      }

      @Override
      public java.util.Optional<ArgumentSchema> argumentSchema() {
        return java.util.Optional.empty();
      }

      @Override
      public EffectKind effectKind() {
        return EffectKind.UNRECEIPTED;
      }
    };
  }

  /** Parses and checks a write's arguments against the declared forms. */
  public static Write parseWrite(
      JsonObject a, String p, Map<String, PageForm> forms, boolean receipted, boolean withFields) {
    Fields f =
        withFields
            ? Fields.exact(a, p, "path", "form", "fields")
            : Fields.exact(a, p, "path", "form");
    String path = checkPath(f.text("path"), p + ".path");
    String formId = f.text("form");
    PageForm form = forms.get(formId);
    if (form == null) {
      throw new RatchetException(
          ErrorCode.PERMISSION, p + ".form: '" + formId + "' is not a form the task allows");
    }
    if (form.receipted() != receipted) {
      throw RatchetException.contract(
          p
              + ".form: '"
              + formId
              + "' is "
              + (form.receipted() ? "" : "not ")
              + "receipted by its service; use "
              + (form.receipted() ? FILL_AND_SUBMIT : FILL_AND_SUBMIT_UNRECEIPTED));
    }
    Map<String, String> fields = new LinkedHashMap<>();
    if (withFields) {
      for (Map.Entry<String, JsonValue> e : f.obj("fields").members().entrySet()) {
        String name = e.getKey();
        if (!ID.matcher(name).matches() || PageDriver.KEY_FIELDS.contains(name)) {
          throw RatchetException.contract(
              p + ".fields." + name + ": not a field name the task may set");
        }
        if (!(e.getValue() instanceof JsonString s) || s.value().length() > 1000) {
          throw RatchetException.contract(p + ".fields." + name + ": must be a string of <= 1000");
        }
        fields.put(name, s.value());
      }
    }
    return new Write(path, form, fields);
  }

  private static void read(JsonObject a, String p, boolean elements, List<String> prefixes) {
    Fields f = elements ? Fields.exact(a, p, "path", "elements") : Fields.exact(a, p, "path");
    prefix(checkPath(f.text("path"), p + ".path"), prefixes);
    if (elements) {
      for (String id : ids(a)) {
        if (!ID.matcher(id).matches()) {
          throw RatchetException.contract(p + ".elements: '" + id + "' is not an element id");
        }
      }
    }
  }

  public static List<String> ids(JsonObject a) {
    return Fields.exact(a, "arguments", "path", "elements").array("elements").items().stream()
        .map(v -> v instanceof JsonString s ? s.value() : "")
        .toList();
  }

  public static String path(JsonObject a) {
    return a.get("path").orElse(null) instanceof JsonString s ? s.value() : "";
  }

  private static String formId(JsonObject a) {
    return a.get("form").orElse(null) instanceof JsonString s ? s.value() : "";
  }

  private static String checkPath(String path, String where) {
    if (!PATH.matcher(path).matches() || path.contains("/../") || path.endsWith("/..")) {
      throw RatchetException.contract(where + ": '" + path + "' is not an absolute path");
    }
    return path;
  }

  private static String prefix(String path, List<String> prefixes) {
    return prefixes.stream()
        .filter(path::startsWith)
        .findFirst()
        .orElseThrow(
            () ->
                new RatchetException(
                    ErrorCode.PERMISSION, "path '" + path + "' is outside the URL prefixes"));
  }
}
