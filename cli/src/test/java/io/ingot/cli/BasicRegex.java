package io.ingot.cli;

import java.util.regex.Pattern;

/**
 * POSIX basic regular expressions (what {@code grep PATTERN} reads, as Triton's QA scripts use it) as Java
 * patterns: {@code .}, {@code *}, {@code ^}, {@code $} and bracket expressions keep their meaning; {@code \(},
 * {@code \)}, <code>\{</code>, <code>\}</code> group and repeat; any other escaped character, and {@code +},
 * {@code ?}, {@code (}, {@code )}, <code>{</code>, <code>}</code> and {@code |} unescaped, are literal. Stateless.
 */
final class BasicRegex
{
    private BasicRegex()
    {
    }

    /**
     * @param basic a basic regular expression
     * @return the Java pattern that matches the same text
     */
    static String toJava(final String basic)
    {
        final StringBuilder java = new StringBuilder();
        int bracketStart = -1;
        for (int i = 0; i < basic.length(); i++)
        {
            final char c = basic.charAt(i);
            if (bracketStart >= 0)
            {
                // A ']' right after '[' or '[^' is a member, not the end.
                final boolean first = i == bracketStart + 1 || i == bracketStart + 2
                    && basic.charAt(bracketStart + 1) == '^';
                if (c == ']' && !first)
                {
                    bracketStart = -1;
                    java.append(c);
                }
                else
                {
                    java.append(c == '\\' || c == '[' || c == ']' || c == '&' ? "\\" + c : String.valueOf(c));
                }
            }
            else if (c == '\\' && i + 1 < basic.length())
            {
                final char next = basic.charAt(++i);
                java.append("(){}".indexOf(next) >= 0 ? String.valueOf(next) : Pattern.quote(String.valueOf(next)));
            }
            else if ("+?(){}|".indexOf(c) >= 0)
            {
                java.append('\\').append(c);
            }
            else
            {
                if (c == '[')
                {
                    bracketStart = i;
                }
                java.append(c);
            }
        }
        return java.toString();
    }
}
