package org.scrapycluster.kafkamonitor.intake;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What an object keeps alive, found by walking its fields: the project's own classes field by field, collections,
 * maps, arrays and optionals by their elements. Counts the characters of its strings and the bytes of its byte
 * arrays, and the parsed JSON trees it reaches (not walked into). Objects of the {@code shared} classes, which every
 * record shares (a plugin and its schema), are not walked.
 */
record Retained(long textBytes, int jsonTrees) {

    static Retained by(Object root, Class<?>... shared) {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Object> next = new ArrayDeque<>();
        next.push(root);
        long text = 0;
        int trees = 0;
        while (!next.isEmpty()) {
            Object object = next.pop();
            if (!seen.add(object) || isShared(object, shared)) {
                continue;
            }
            switch (object) {
                case String string -> text += string.length();
                case byte[] bytes -> text += bytes.length;
                case JsonNode tree -> trees++;
                case Optional<?> optional -> optional.ifPresent(next::push);
                case Collection<?> collection -> collection.forEach(element -> push(next, element));
                case Map<?, ?> map -> map.forEach((key, value) -> {
                    push(next, key);
                    push(next, value);
                });
                case Object[] array -> {
                    for (Object element : array) {
                        push(next, element);
                    }
                }
                default -> {
                    if (object.getClass().getName().startsWith("org.scrapycluster.")) {
                        fields(object, next);
                    }
                }
            }
        }
        return new Retained(text, trees);
    }

    private static boolean isShared(Object object, Class<?>[] shared) {
        for (Class<?> type : shared) {
            if (type.isInstance(object)) {
                return true;
            }
        }
        return false;
    }

    private static void fields(Object object, Deque<Object> next) {
        for (Class<?> type = object.getClass(); type != null && type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
                    continue;
                }
                field.setAccessible(true);
                try {
                    push(next, field.get(object));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    private static void push(Deque<Object> next, Object value) {
        if (value != null && !(value instanceof Number) && !(value instanceof Boolean) && !(value instanceof Enum<?>)
                && !(value.getClass().isArray() && value.getClass().getComponentType().isPrimitive() && !(value instanceof byte[]))) {
            next.push(value);
        }
    }
}
