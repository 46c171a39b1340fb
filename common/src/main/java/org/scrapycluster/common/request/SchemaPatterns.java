package org.scrapycluster.common.request;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;

/**
 * The regular expressions of request schemas ({@code pattern}, {@code patternProperties}, the {@code regex} format),
 * compiled as {@link LinearRegex} compiles a request's own, so that checking a value takes time linear in its length
 * (docs/architecture.md, guarantee 6). The schema validator's default, the JDK's backtracking matcher, recurses once a
 * character on a pattern such as {@code ^(a|b)*$}: a long enough value in a request overflowed the stack of the
 * monitor that checked it, and of every monitor of its group that took the record again. A pattern RE2/J cannot run
 * (a look-around, a back-reference) makes the schema invalid, which a plugin learns when it is set up, not when a
 * request comes. A pattern matches anywhere in the value unless anchored, as JSON Schema says.
 */
final class SchemaPatterns implements RegularExpressionFactory {

    static final SchemaPatterns LINEAR = new SchemaPatterns();

    private SchemaPatterns() {
    }

    /**
     * @throws IllegalArgumentException when {@code regex} does not run in linear time or is beyond {@link LinearRegex}'s
     *         limits
     */
    @Override
    public RegularExpression getRegularExpression(String regex) {
        Pattern pattern;
        try {
            pattern = LinearRegex.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("the pattern " + regex + " is not a regular expression that runs in linear time"
                    + " (RE2 syntax, no back-references or look-arounds): " + e.getDescription(), e);
        }
        return value -> pattern.matcher(value).find();
    }
}
