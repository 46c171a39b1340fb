package org.scrapycluster.embedded.junit;

/**
 * Reads Redis's {@code INFO commandstats}: how often the server ran a command since its statistics were last reset,
 * the commands that scripts ran included. Tests count commands by it rather than by what their clients saw.
 */
public final class CommandStats {

    private CommandStats() {
    }

    /**
     * The calls of {@code commands} together, in lower case as Redis names them ("evalsha", "publish").
     *
     * @param info the text of {@code INFO commandstats}
     */
    public static long calls(String info, String... commands) {
        long calls = 0;
        for (String line : info.split("\r?\n")) {
            for (String command : commands) {
                String prefix = "cmdstat_" + command + ":calls=";
                if (line.startsWith(prefix)) {
                    calls += Long.parseLong(line.substring(prefix.length(), line.indexOf(',', prefix.length())));
                }
            }
        }
        return calls;
    }
}
