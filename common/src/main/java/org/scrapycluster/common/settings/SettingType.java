package org.scrapycluster.common.settings;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The type of a setting's value, as inferred from its default or declared by a {@code [type]} tag. */
public enum SettingType {
    STRING,
    INT,
    LONG,
    DOUBLE,
    BOOLEAN,
    LIST,
    MAP;

    /** The tag spelling: {@code string}, {@code int}, ... */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The type named by a tag, if the tag names one. */
    public static Optional<SettingType> fromTag(String tag) {
        for (SettingType type : values()) {
            if (type.tag().equals(tag)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    /** The type of a value SnakeYAML produced, or empty for null and for values no setting can hold. */
    public static Optional<SettingType> of(Object value) {
        return Optional.ofNullable(switch (value) {
            case String s -> STRING;
            case Integer i -> INT;
            case Long l -> LONG;
            case Double d -> DOUBLE;
            case Boolean b -> BOOLEAN;
            case List<?> l -> LIST;
            case Map<?, ?> m -> MAP;
            case null, default -> null;
        });
    }

    boolean isScalar() {
        return this != LIST && this != MAP;
    }
}
