package org.scrapycluster.standalone;

import java.util.concurrent.Callable;

import org.scrapycluster.common.cli.ClusterCommand;
import org.scrapycluster.common.cli.SettingsOptions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** A subcommand contributed the way service modules contribute theirs: prints one setting of the crawler. */
@Command(name = "echo-setting", description = "Print one crawler setting (test command).")
public final class EchoSettingCommand implements ClusterCommand, Callable<Integer> {

    @Mixin
    SettingsOptions options;

    @Parameters(paramLabel = "NAME")
    String name;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println(name + "=" + options.load("crawler").get(name));
        return 0;
    }
}
