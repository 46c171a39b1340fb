package org.scrapycluster.common.zookeeper;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * The keys a YAML document writes more than once in one mapping, which a lenient reader resolves silently, the last
 * one read (docs/throttling.md): found in the composed node tree, each reported once with its path
 * ({@code domains.cnn.com.hits}). A node reached again through an alias is not walked twice.
 */
final class DuplicateKeys {

    private final List<ConfigProblem> problems = new ArrayList<>();
    private final Set<Node> walked = Collections.newSetFromMap(new IdentityHashMap<>());

    private DuplicateKeys() {
    }

    /** The duplicate keys under {@code root}, or none when {@code root} is null (an empty document). */
    static List<ConfigProblem> in(Node root) {
        DuplicateKeys found = new DuplicateKeys();
        if (root != null) {
            found.walk(root, "");
        }
        return found.problems;
    }

    private void walk(Node node, String path) {
        if (!walked.add(node)) {
            return;
        }
        switch (node) {
            case MappingNode mapping -> {
                Set<String> seen = new HashSet<>();
                Set<String> reported = new HashSet<>();
                for (NodeTuple entry : mapping.getValue()) {
                    if (entry.getKeyNode() instanceof ScalarNode key && !Tag.MERGE.equals(key.getTag())) {
                        String keyPath = path.isEmpty() ? key.getValue() : path + "." + key.getValue();
                        // by its text: the reader takes 1 and '1' for the same key, as it reads every key as text
                        if (!seen.add(key.getValue()) && reported.add(key.getValue())) {
                            problems.add(new ConfigProblem(keyPath, "is written more than once; the last is read"));
                        }
                        walk(entry.getValueNode(), keyPath);
                    }
                }
            }
            case SequenceNode sequence -> {
                for (int i = 0; i < sequence.getValue().size(); i++) {
                    walk(sequence.getValue().get(i), path + "[" + i + "]");
                }
            }
            default -> {
            }
        }
    }
}
