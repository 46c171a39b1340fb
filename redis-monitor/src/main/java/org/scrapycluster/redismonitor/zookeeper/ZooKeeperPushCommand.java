package org.scrapycluster.redismonitor.zookeeper;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.scrapycluster.common.file.UnreadableFile;
import org.scrapycluster.common.zookeeper.ConfigProblem;
import org.scrapycluster.common.zookeeper.DomainConfig;
import org.scrapycluster.common.zookeeper.DomainConfigDiff;
import org.scrapycluster.common.zookeeper.DomainConfigYaml;
import org.scrapycluster.common.zookeeper.ParsedDomainConfig;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException.Failure;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code scrapy-cluster zookeeper push FILE.yml}: the original's {@code file_pusher.py} (docs/compatibility.md
 * §5.5), stricter. The file is validated first and refused with every problem listed (exit
 * status 1); a valid file is written to the node as it is (created when missing) and the changes
 * it made are printed. {@code --wipe} empties the node instead, which crawlers take as "no config".
 */
@Command(name = "push", mixinStandardHelpOptions = true,
        description = "Validate a domain config YAML file and write it to ZooKeeper, printing what changed.")
public final class ZooKeeperPushCommand implements Callable<Integer> {

    @Mixin
    ZooKeeperNodeOptions node;

    @Parameters(paramLabel = "FILE", arity = "0..1", description = "The YAML file (blacklist and domains).")
    Path file;

    @Option(names = {"-w", "--wipe"}, description = "Empty the node instead of writing a file.")
    boolean wipe;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (wipe == (file != null)) {
            throw new ParameterException(spec.commandLine(), "Give either a FILE to push or --wipe");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String text;
        DomainConfig config = DomainConfig.EMPTY;
        if (wipe) {
            text = "";
        } else {
            try {
                text = Files.readString(file);
            } catch (IOException e) {
                err.println("Cannot read " + file + ": " + UnreadableFile.reason(e));
                return 1;
            }
            ParsedDomainConfig parsed = DomainConfigYaml.parseStrict(text);
            if (!parsed.isUsable()) {
                err.println(file + " was not pushed:");
                for (ConfigProblem problem : parsed.problems()) {
                    err.println("  " + problem);
                }
                return 1;
            }
            config = parsed.config().orElseThrow();
        }
        try (ZooKeeperConfigStore store = node.open(Failure.STORE)) {
            String previous = store.replaceText(text);
            out.println((wipe ? "Wiped " : "Pushed " + file + " to ") + node.nodePath() + " at " + node.hosts());
            printChanges(out, previous, config);
            out.flush();
            return 0;
        } catch (ZooKeeperConfigException e) {
            err.println(e.getMessage());
            return 1;
        }
    }

    private static void printChanges(PrintWriter out, String previous, DomainConfig config) {
        ParsedDomainConfig before = DomainConfigYaml.parseLenient(previous);
        if (before.config().isEmpty()) {
            out.println("  replaced text that was not a domain config");
            return;
        }
        List<String> changes = DomainConfigDiff.between(before.config().get(), config);
        if (changes.isEmpty()) {
            out.println("  no change");
        }
        changes.forEach(change -> out.println("  " + change));
    }
}
