package org.scrapycluster.services;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.cli.ScrapyClusterCommand;

/** The services jar's command line, built from this module's class path: the jar's own. */
class ServicesCommandLineTest {

    @Test
    void offersTheServicesAndClientToolsButNothingThatEmbedsAServer() {
        Set<String> subcommands = new TreeSet<>(ScrapyClusterCommand.commandLine().getSubcommands().keySet());
        assertEquals(new TreeSet<>(Set.of("crawler", "dump", "feed", "help", "kafka-monitor", "redis-monitor", "rest", "zookeeper")),
                subcommands);
    }
}
