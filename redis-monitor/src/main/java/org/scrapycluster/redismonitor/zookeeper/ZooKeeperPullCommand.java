package org.scrapycluster.redismonitor.zookeeper;

import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.scrapycluster.common.zookeeper.ZooKeeperConfigException;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException.Failure;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code scrapy-cluster zookeeper pull}: prints the domain config node's YAML as it is stored; a node that does
 * not exist is reported (exit status 1) and left absent.
 */
@Command(name = "pull", mixinStandardHelpOptions = true, description = "Print the domain config YAML stored in ZooKeeper.")
public final class ZooKeeperPullCommand implements Callable<Integer> {

    @Mixin
    ZooKeeperNodeOptions node;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (ZooKeeperConfigStore store = node.open(Failure.LOAD)) {
            Optional<String> stored = store.readTextIfPresent();
            if (stored.isEmpty()) {
                spec.commandLine().getErr().println(node.nodePath() + " does not exist at " + node.hosts());
                return 1;
            }
            String text = stored.get();
            if (text.isEmpty()) {
                spec.commandLine().getErr().println(node.nodePath() + " is empty");
            }
            out.print(text);
            out.flush();
            return 0;
        } catch (ZooKeeperConfigException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 1;
        }
    }
}
