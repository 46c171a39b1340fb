package org.scrapycluster.common.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.concurrent.Completions;
import org.scrapycluster.common.keyspace.Keyspace;

/**
 * A Lua script from the classpath ({@code lua/<name>.lua}), run by its SHA-1 digest with
 * {@code EVALSHA}; when Redis does not know the digest (first use, or after a restart or a
 * {@code SCRIPT FLUSH}) it is sent once with {@code EVAL}, which also caches it.
 *
 * <p>Redis scripts cannot include one another, so helpers shared by several scripts live in
 * {@code lua/lib/<library>.lua} and are prepended to the scripts that name them. The library
 * {@value #KEYSPACE} is not a file: it is rendered by {@link Keyspace#luaLibrary}, always first, so that a script
 * deriving a key from what it reads names it from the same templates as Java.
 */
public final class LuaScript {

    /** The library of key names, rendered from {@link Keyspace}. */
    public static final String KEYSPACE = "keyspace";

    private static final String ROOT = "lua/";

    private final String name;
    private final String source;
    private final String sha;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha = sha1(source);
    }

    /**
     * Loads {@code lua/<name>.lua} with the libraries {@code lua/lib/<library>.lua} in front of it,
     * in the order given.
     *
     * @throws IllegalStateException when a resource is missing (a packaging error)
     */
    public static LuaScript load(String name, String... libraries) {
        StringBuilder source = new StringBuilder();
        boolean keyspace = false;
        for (String library : libraries) {
            if (library.equals(KEYSPACE)) {
                keyspace = true;
            } else {
                source.append(resource(ROOT + "lib/" + library + ".lua")).append('\n');
            }
        }
        source.append(resource(ROOT + name + ".lua"));
        if (keyspace) {
            source.insert(0, Keyspace.luaLibrary(source.toString()) + '\n');
        }
        return new LuaScript(name, source.toString());
    }

    public String name() {
        return name;
    }

    /** The full text sent to Redis, libraries included. */
    public String source() {
        return source;
    }

    /** The SHA-1 digest Redis knows the script by. */
    public String sha() {
        return sha;
    }

    /** Runs the script without blocking; several calls in flight are pipelined. */
    public <T> CompletableFuture<T> run(RedisConnection redis, ScriptOutputType type, String[] keys, String... args) {
        CompletableFuture<T> byDigest = redis.async().<T>evalsha(sha, type, keys, args).toCompletableFuture();
        return byDigest.exceptionallyCompose(failure -> {
            Throwable cause = Completions.cause(failure);
            if (cause instanceof RedisNoScriptException) {
                return redis.async().<T>eval(source, type, keys, args).toCompletableFuture();
            }
            return CompletableFuture.failedFuture(cause);
        });
    }

    /** Runs the script and waits for its result (see {@link RedisConnection#await}). */
    public <T> T call(RedisConnection redis, ScriptOutputType type, String[] keys, String... args) {
        return redis.await(this.<T>run(redis, type, keys, args));
    }

    @Override
    public String toString() {
        return "LuaScript[" + name + " " + sha + "]";
    }

    private static String resource(String path) {
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Lua script " + path + " is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Lua script " + path, e);
        }
    }

    /**
     * The SHA-1 of {@code text}'s UTF-8 bytes in lower-case hex, as Redis computes it for a script ({@code SCRIPT LOAD})
     * and for any value ({@code redis.sha1hex}).
     */
    public static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-1", e);
        }
    }
}
