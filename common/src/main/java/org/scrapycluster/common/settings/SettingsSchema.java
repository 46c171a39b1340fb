package org.scrapycluster.common.settings;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Every setting one service declares: the files it includes, then its own file
 * {@code config/<service>.yml}. A service file may restate an included setting to give it a
 * different default (for example {@code LOG_FILE}); the type stays the included one's.
 */
public final class SettingsSchema {

    /** The services with a defaults file, in the order documentation lists them. */
    public static final List<String> SERVICES = List.of("kafka-monitor", "redis-monitor", "crawler", "rest", "standalone");

    /** The schemas read from the class path, which does not change while the process runs: each is read once. */
    private static final Map<String, SettingsSchema> ON_CLASS_PATH = new ConcurrentHashMap<>();

    private final String service;
    private final List<SettingsFile> files;
    private final Map<String, SettingDeclaration> declarations;

    private SettingsSchema(String service, List<SettingsFile> files, Map<String, SettingDeclaration> declarations) {
        this.service = service;
        this.files = files;
        this.declarations = declarations;
    }

    /** The schema of {@code service} from the {@code config/} resources on the class path. */
    public static SettingsSchema load(String service) {
        return ON_CLASS_PATH.computeIfAbsent(service, name -> load(name, SettingsSchema::readResource));
    }

    /** The schema of {@code service}, reading each file's text by its name (without {@code .yml}). */
    static SettingsSchema load(String service, Function<String, String> reader) {
        SettingsFile own = SettingsFile.parse(service, reader.apply(service));
        List<SettingsFile> files = new ArrayList<>();
        Map<String, SettingDeclaration> declarations = new LinkedHashMap<>();
        for (String include : own.includes()) {
            SettingsFile shared = SettingsFile.parse(include, reader.apply(include));
            if (!shared.includes().isEmpty()) {
                throw new SettingsException("config/" + include + ".yml: an included file cannot include others");
            }
            for (SettingDeclaration declaration : shared.declarations()) {
                SettingDeclaration earlier = declarations.putIfAbsent(declaration.name(), declaration);
                if (earlier != null) {
                    throw new SettingsException("setting " + declaration.name() + " is declared in both "
                            + earlier.file() + " and " + declaration.file());
                }
            }
            files.add(shared);
        }
        for (SettingDeclaration declaration : own.declarations()) {
            declarations.merge(declaration.name(), declaration, SettingsSchema::restate);
        }
        files.add(own);
        for (SettingDeclaration declaration : declarations.values()) {
            if (declaration.doc().isEmpty()) {
                throw new SettingsException(declaration.file() + ": setting " + declaration.name()
                        + " needs a comment line above it saying what it is for");
            }
        }
        return new SettingsSchema(service, List.copyOf(files), Collections.unmodifiableMap(declarations));
    }

    public String service() {
        return service;
    }

    /** The included files first, the service's own file last. */
    public List<SettingsFile> files() {
        return files;
    }

    /** Every setting, in declaration order, with the service's own defaults. */
    public Collection<SettingDeclaration> declarations() {
        return declarations.values();
    }

    public Optional<SettingDeclaration> find(String name) {
        return Optional.ofNullable(declarations.get(name));
    }

    /** The declaration of {@code name}; fails when this service has no such setting. */
    public SettingDeclaration get(String name) {
        return find(name).orElseThrow(() -> new SettingsException("the " + service + " has no setting " + name));
    }

    private static SettingDeclaration restate(SettingDeclaration included, SettingDeclaration restated) {
        if (restated.defaultValue() == null && !included.nullable()) {
            throw new SettingsException(restated.file() + ": setting " + restated.name() + " cannot default to null");
        }
        Object value;
        try {
            value = restated.defaultValue() == null ? null : included.fromYaml(restated.defaultValue());
        } catch (IllegalArgumentException e) {
            throw new SettingsException(restated.file() + ": default of setting " + restated.name() + " does not fit the "
                    + included.typeName() + " declared in " + included.file() + ": " + e.getMessage(), e);
        }
        String doc = restated.doc().isEmpty() ? included.doc() : restated.doc();
        return new SettingDeclaration(included.name(), included.type(), included.elementType(), value, doc, included.file(),
                included.keepsEmpty(), included.secret());
    }

    private static String readResource(String name) {
        String resource = "config/" + name + ".yml";
        try (InputStream in = SettingsSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new SettingsException("no defaults file " + resource + " on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
