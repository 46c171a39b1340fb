package org.example.shared;

/** A library class the service has; a plugin jar in PluginFoldersTest bundles its own version of it. */
public final class Origin {

    private Origin() {
    }

    public static String where() {
        return "service";
    }
}
