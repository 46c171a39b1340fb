package org.scrapycluster.rest.tls;

/** A TLS file the gateway cannot use: the setting that names it, and why, in words that name the file. */
final class UnusableTlsFile extends Exception {

    private final String setting;

    UnusableTlsFile(String setting, String problem) {
        super(problem, null, false, false);
        this.setting = setting;
    }

    /** The setting naming the file. */
    String setting() {
        return setting;
    }

    /** The problem, to go after the setting's name: {@code is /etc/tls/key.pem, which ...}. */
    String problem() {
        return getMessage();
    }
}
