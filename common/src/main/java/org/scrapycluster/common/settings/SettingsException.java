package org.scrapycluster.common.settings;

/**
 * A setting that cannot be used: an unknown name in an override, a value that does not convert
 * to the setting's type, a malformed file. The message names the setting and where it came from,
 * and is meant to be shown to the user as it is.
 */
public class SettingsException extends RuntimeException {

    public SettingsException(String message) {
        super(message);
    }

    public SettingsException(String message, Throwable cause) {
        super(message, cause);
    }
}
