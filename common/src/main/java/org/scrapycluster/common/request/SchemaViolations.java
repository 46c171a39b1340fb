package org.scrapycluster.common.request;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.path.NodePath;
import org.scrapycluster.common.json.PythonNumbers;

/** Turns the schema library's errors into {@link Violation}s a user can act on. */
final class SchemaViolations {

    private final JsonNode schema;

    SchemaViolations(JsonNode schema) {
        this.schema = schema;
    }

    /** The violation {@code error} of the schema reports in {@code request}. */
    Violation of(Error error, JsonNode request) {
        String path = path(error.getInstanceLocation(), error.getProperty(), error.getKeyword());
        JsonNode value = valueAt(request, error.getInstanceLocation()).orElse(error.getInstanceNode());
        Object[] arguments = error.getArguments();
        String limit = arguments != null && arguments.length > 0 ? String.valueOf(arguments[0]) : "";
        String message = switch (error.getKeyword()) {
            case "type" -> "must be " + expected(error.getSchemaNode()) + ", was " + describe(value);
            case "required" -> "is required";
            case "additionalProperties" -> "is not an allowed field (the request may only have the fields its schema lists)";
            case "minimum" -> (exclusive(error, "exclusiveMinimum") ? "must be greater than " : "must be at least ")
                    + limit + ", was " + describe(value);
            case "maximum" -> (exclusive(error, "exclusiveMaximum") ? "must be less than " : "must be at most ")
                    + limit + ", was " + describe(value);
            case "minLength" -> "must be at least " + characters(limit) + " long, was " + length(value);
            case "maxLength" -> "must be at most " + characters(limit) + " long, was " + length(value);
            case "minItems" -> "must have at least " + limit + " items, had " + value.size();
            case "maxItems" -> "must have at most " + limit + " items, had " + value.size();
            case "enum" -> "must be one of " + choices(error.getSchemaNode()) + "; was " + describe(value);
            case "uniqueItems" -> "must not list the same item twice";
            default -> error.getMessage();
        };
        return new Violation(path, message);
    }

    /**
     * The value at {@code location} as the request holds it: the library hands some checks a value of its own making
     * ({@code enum} compares a number as a decimal, {@code 1} as {@code 1.0}), and the sender is told what was sent.
     */
    private static Optional<JsonNode> valueAt(JsonNode request, NodePath location) {
        JsonNode node = request;
        for (int i = 0; i < location.getNameCount() && node != null; i++) {
            node = location.getElement(i) instanceof Integer index ? node.get(index) : node.get(String.valueOf(location.getElement(i)));
        }
        return Optional.ofNullable(node);
    }

    private static String characters(String limit) {
        return limit + (limit.equals("1") ? " character" : " characters");
    }

    /**
     * The field of the request itself that {@code error} refuses ({@code appid}); none when it refuses a value inside a
     * field ({@code allowed_domains[3]}) or the request as a whole. Cheaper than {@link #of}, for every error.
     */
    static Optional<String> field(Error error) {
        NodePath location = error.getInstanceLocation();
        boolean property = namesAProperty(error.getKeyword()) && error.getProperty() != null;
        return location.getNameCount() + (property ? 1 : 0) == 1
                ? Optional.of(path(location, error.getProperty(), error.getKeyword()))
                : Optional.empty();
    }

    private static boolean namesAProperty(String keyword) {
        return keyword.equals("required") || keyword.equals("additionalProperties");
    }

    private static String path(NodePath location, String property, String keyword) {
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < location.getNameCount(); i++) {
            Object element = location.getElement(i);
            if (element instanceof Integer index) {
                path.append('[').append(index).append(']');
            } else {
                path.append(path.isEmpty() ? "" : ".").append(element);
            }
        }
        if (namesAProperty(keyword) && property != null) {
            path.append(path.isEmpty() ? "" : ".").append(property);
        }
        return path.isEmpty() ? "request" : path.toString();
    }

    /** Whether the Draft 4 boolean {@code exclusiveMaximum} / {@code exclusiveMinimum} is set beside the failed keyword. */
    private boolean exclusive(Error error, String flag) {
        String location = String.valueOf(error.getSchemaLocation());
        int fragment = location.indexOf('#');
        if (fragment < 0) {
            return false;
        }
        String pointer = location.substring(fragment + 1);
        int keyword = pointer.lastIndexOf('/');
        return keyword >= 0 && schema.at(pointer.substring(0, keyword)).path(flag).asBoolean(false);
    }

    private static String expected(JsonNode types) {
        if (types.isArray()) {
            List<String> names = new ArrayList<>();
            types.forEach(type -> names.add(typeName(type.asText())));
            return String.join(" or ", names);
        }
        return typeName(types.asText());
    }

    private static String typeName(String type) {
        return switch (type) {
            case "string" -> "a string";
            case "integer" -> "an integer";
            case "number" -> "a number";
            case "boolean" -> "true or false";
            case "array" -> "an array";
            case "object" -> "an object";
            default -> type;
        };
    }

    private static String choices(JsonNode values) {
        List<String> names = new ArrayList<>();
        values.forEach(value -> names.add(value.isTextual() ? value.asText() : value.toString()));
        return String.join(", ", names);
    }

    private static String length(JsonNode value) {
        String text = value.asText();
        return String.valueOf(text.codePointCount(0, text.length()));
    }

    private static String describe(JsonNode value) {
        if (value.isTextual()) {
            return SafetyChecks.quoted(value.asText());
        }
        if (value.isArray()) {
            return "an array";
        }
        if (value.isObject()) {
            return "an object";
        }
        if (value.isNumber()) {
            return PythonNumbers.repr(value.numberValue());
        }
        return value.toString();
    }
}
