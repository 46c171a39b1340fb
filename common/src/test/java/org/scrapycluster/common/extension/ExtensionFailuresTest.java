package org.scrapycluster.common.extension;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Why a class a setting names cannot be made, as its start-up error says it. */
class ExtensionFailuresTest {

    /** An extension walk's package-private class was said to have no public constructor without arguments. */
    @Test
    void aClassThatIsNotPublicIsSaidToBeNotPublic() {
        assertEquals("is not public: make the class public, with a public constructor without arguments",
                ExtensionFailures.unconstructable(Hidden.class));
    }

    @Test
    void anAbstractClassAnInnerClassAndOneWithoutTheConstructorEachSayWhy() {
        assertEquals("is abstract: name a class that can be made", ExtensionFailures.unconstructable(Unfinished.class));
        assertEquals("is an inner class, made only with an instance of its outer class: make it static",
                ExtensionFailures.unconstructable(Inner.class));
        assertEquals("has no public constructor without arguments", ExtensionFailures.unconstructable(Configured.class));
    }

    static class Hidden {
    }

    public abstract static class Unfinished {
    }

    public class Inner {
    }

    public static class Configured {
        public Configured(String name) {
        }
    }
}
