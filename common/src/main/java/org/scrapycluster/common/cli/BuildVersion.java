package org.scrapycluster.common.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import picocli.CommandLine.IVersionProvider;

/** The version the build wrote into {@code version.properties}, for {@code --version}. */
public final class BuildVersion implements IVersionProvider {

    /** The project version, e.g. {@code 1.0.0-SNAPSHOT}. */
    public static String current() {
        Properties properties = new Properties();
        try (InputStream in = BuildVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing from the build");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read version.properties", e);
        }
        return properties.getProperty("version");
    }

    @Override
    public String[] getVersion() {
        return new String[] {"Scrapy Cluster for Java " + current(), "Java " + Runtime.version()};
    }
}
