package org.scrapycluster.bench;

/**
 * What {@code scrapy-cluster bench} gives its subcommands: the servers to measure against. The
 * addresses given on the command line are used as they are; for the others the environment
 * starts embedded servers, which {@link BenchmarkCluster#close()} stops again.
 */
public interface BenchmarkEnvironment {

    /**
     * The cluster for one benchmark run, with the servers it {@code needs} (the others are not
     * started and their addresses are not available); close it when the run is over.
     */
    BenchmarkCluster open(BenchmarkCluster.Server... needs);

    /** Sets up logging at the command's level, as {@link #open} does, for a benchmark that needs none of its servers. */
    void configureLogging();
}
