package org.scrapycluster.embedded.junit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.scrapycluster.embedded.EmbeddedStack;

/**
 * Gives tests the embedded Kafka, ZooKeeper and Redis, started once per test JVM on free ports
 * and stopped when the JVM's tests are done. Use it with {@code @ExtendWith(SharedStack.class)}
 * and take an {@link EmbeddedStack} parameter in a constructor, a lifecycle method or a test.
 */
public final class SharedStack implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedStack.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == EmbeddedStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return stack(context);
    }

    /** The shared stack, started on first use. */
    public static EmbeddedStack stack(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .computeIfAbsent(EmbeddedStack.class, type -> EmbeddedStack.start(EmbeddedStack.Options.forTests()),
                        EmbeddedStack.class);
    }
}
