package org.scrapycluster.common.settings;

/** Where a setting's value came from, lowest precedence first. */
public enum Layer {
    /** The service's defaults in {@code config/<service>.yml}. */
    DEFAULT("the defaults"),
    /** The local override file given with {@code --config}. */
    FILE("the override file"),
    /** An environment variable of the same name. */
    ENVIRONMENT("the environment"),
    /** {@code --set NAME=VALUE} or a logging flag on the command line. */
    COMMAND_LINE("the command line"),
    /** The launcher, pointing a service at a server it started (standalone's embedded servers). */
    LAUNCHER("the launcher");

    private final String description;

    Layer(String description) {
        this.description = description;
    }

    /** Words for error messages: "the environment", "the command line", ... */
    public String description() {
        return description;
    }

    /** True for the layers a user writes: the override file, the environment and the command line. */
    public boolean isUser() {
        return this == FILE || this == ENVIRONMENT || this == COMMAND_LINE;
    }
}
