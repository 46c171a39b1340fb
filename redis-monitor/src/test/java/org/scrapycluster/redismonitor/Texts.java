package org.scrapycluster.redismonitor;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Test resources as text. */
public final class Texts {

    private Texts() {
    }

    /** The UTF-8 text of the class-path resource {@code name}. */
    public static String resource(String name) {
        try (InputStream in = Texts.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
