package org.scrapycluster.common.zookeeper;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What reading a domain config document gave: the config, when it can be used, and every problem
 * found. In strict mode any problem leaves no config; in lenient mode the problems are warnings
 * about parts that were skipped, and there is no config only when the document is not YAML or
 * not a mapping, which a crawler treats as an error.
 *
 * @param config the config, when usable
 * @param problems every problem found, in document order
 */
public record ParsedDomainConfig(Optional<DomainConfig> config, List<ConfigProblem> problems) {

    public ParsedDomainConfig {
        Objects.requireNonNull(config, "config");
        problems = List.copyOf(problems);
    }

    /** Whether a config came out of the document. */
    public boolean isUsable() {
        return config.isPresent();
    }
}
