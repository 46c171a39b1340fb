package org.scrapycluster.common.request;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.ExecutionContext;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaContext;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.keyword.BaseKeywordValidator;
import com.networknt.schema.keyword.Keyword;
import com.networknt.schema.keyword.KeywordType;
import com.networknt.schema.keyword.KeywordValidator;
import com.networknt.schema.path.NodePath;

/**
 * The schema keyword {@code uniqueItems}, checked in time linear in the list. The validator's own check keeps the items
 * seen in a hash set of JSON nodes; a text node hashes as its string, and a node cannot be ordered, so strings made to
 * share one hash (there are as many as one wants, of any length) fall into one bucket searched from end to end: a
 * crawl request whose {@code allowed_domains} listed 28,000 of them, under a megabyte, took seconds of the monitor's
 * single thread to check, and each monitor of the group that took the record again paid as much. Here an item is
 * kept as a string, which the set orders within a crowded bucket, so such a list costs what any list of its length
 * costs (docs/benchmarks.md, "A request that breaks every rule"). Items are equal as the validator's check finds them
 * equal: strings by their text, other values by their JSON, the members of an object in any order. One error is
 * reported for each repeat, as that check reports them.
 */
final class UniqueItems implements Keyword {

    static final UniqueItems KEYWORD = new UniqueItems();

    private UniqueItems() {
    }

    @Override
    public String getValue() {
        return KeywordType.UNIQUE_ITEMS.getValue();
    }

    @Override
    public KeywordValidator newValidator(SchemaLocation location, JsonNode schemaNode, Schema parent, SchemaContext context) {
        return new Check(location, schemaNode, parent, context);
    }

    /** What an item is compared by: a string's text, or any other value's JSON with an object's members in order. */
    static String key(JsonNode item) {
        if (item.isTextual()) {
            return "\"" + item.textValue();
        }
        StringBuilder key = new StringBuilder();
        appendCanonical(item, key);
        return key.toString();
    }

    private static void appendCanonical(JsonNode value, StringBuilder out) {
        if (value.isObject()) {
            List<Map.Entry<String, JsonNode>> members = new ArrayList<>(value.properties());
            members.sort(Map.Entry.comparingByKey());
            out.append('{');
            for (Map.Entry<String, JsonNode> member : members) {
                out.append(member.getKey().length()).append(':').append(member.getKey());
                appendCanonical(member.getValue(), out);
            }
            out.append('}');
        } else if (value.isArray()) {
            out.append('[');
            for (JsonNode element : value) {
                appendCanonical(element, out);
                out.append(',');
            }
            out.append(']');
        } else {
            out.append(value.isTextual() ? "\"" + value.textValue().length() + ":" + value.textValue() : value.toString());
        }
    }

    private static final class Check extends BaseKeywordValidator implements KeywordValidator {

        private final boolean unique;

        Check(SchemaLocation location, JsonNode schemaNode, Schema parent, SchemaContext context) {
            super(KeywordType.UNIQUE_ITEMS, schemaNode, location, parent, context);
            this.unique = schemaNode.isBoolean() && schemaNode.booleanValue();
        }

        @Override
        public void validate(ExecutionContext context, JsonNode node, JsonNode root, NodePath at) {
            if (!unique || !node.isArray()) {
                return;
            }
            Set<String> seen = new HashSet<>();
            for (JsonNode item : node) {
                if (!seen.add(key(item))) {
                    context.addError(error().instanceNode(node).instanceLocation(at).evaluationPath(context.getEvaluationPath())
                            .locale(context.getExecutionConfig().getLocale()).build());
                }
            }
        }
    }
}
