package org.scrapycluster.redismonitor.zookeeper;

import org.scrapycluster.common.cli.ClusterCommand;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code scrapy-cluster zookeeper}: the domain config tools, {@code push} and {@code pull}. */
@Command(name = "zookeeper", mixinStandardHelpOptions = true,
        description = "Replace or show the domain throttle and blacklist config that crawlers watch in ZooKeeper.",
        subcommands = {ZooKeeperPushCommand.class, ZooKeeperPullCommand.class})
public final class ZooKeeperCommand implements ClusterCommand, Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand: push or pull");
    }
}
