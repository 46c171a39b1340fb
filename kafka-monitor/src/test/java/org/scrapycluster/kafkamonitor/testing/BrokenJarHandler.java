package org.scrapycluster.kafkamonitor.testing;

/** A user plugin whose jar lacks a library it uses: the cluster test's requests reach a class that is not there. */
public final class BrokenJarHandler extends FailingHandler {

    @Override
    Error failure() {
        return new NoClassDefFoundError("com/example/Missing");
    }
}
