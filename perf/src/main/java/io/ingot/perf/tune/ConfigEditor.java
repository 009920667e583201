package io.ingot.perf.tune;

import com.google.protobuf.TextFormat;
import io.ingot.config.ConfigException;
import io.ingot.config.ModelConfigParser;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.config.proto.ModelParameter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Rewrites a {@code config.pbtxt} in place for a tuned configuration: only the top-level fields a sweep changes
 * ({@code max_batch_size}, {@code instance_group}, {@code dynamic_batching}, the {@code parameters} entries it sets)
 * are replaced, where they stand, so that the rest of the file — comments, order, formatting — is kept and the diff
 * shows only the change. The result is parsed back and must equal the configuration asked for.
 */
public final class ConfigEditor
{
    private ConfigEditor()
    {
    }

    /** A top-level field of the text: {@code [start, end)} covers its name and value. */
    record Field(String name, int start, int end)
    {
    }

    /**
     * @param text     the file's text
     * @param original the file's configuration (its text parsed)
     * @param target   the configuration to write: {@code original} with scheduling fields changed
     * @param source   the file's name, for messages
     * @return the rewritten text, which parses to {@code target}
     * @throws IllegalStateException when the rewritten text does not parse to {@code target}
     */
    public static String edit(final String text, final ModelConfig original, final ModelConfig target,
        final String source)
    {
        String edited = text.isEmpty() || text.endsWith("\n") ? text : text + "\n";
        if (original.getMaxBatchSize() != target.getMaxBatchSize())
        {
            edited = replace(edited, "max_batch_size", field -> true, "max_batch_size: " + target.getMaxBatchSize()
                + "\n");
        }
        if (!original.getInstanceGroupList().equals(target.getInstanceGroupList()))
        {
            edited = replace(edited, "instance_group", field -> true, instanceGroups(target));
        }
        if (original.hasDynamicBatching() != target.hasDynamicBatching()
            || !original.getDynamicBatching().equals(target.getDynamicBatching()))
        {
            edited = replace(edited, "dynamic_batching", field -> true,
                target.hasDynamicBatching() ? dynamicBatching(target.getDynamicBatching()) : "");
        }
        final List<String> keys = target.getParametersMap().keySet().stream().sorted(Comparator.naturalOrder())
            .toList();
        for (final String key : keys)
        {
            final ModelParameter value = target.getParametersMap().get(key);
            if (!value.equals(original.getParametersMap().get(key)))
            {
                final String current = edited;
                edited = replace(edited, "parameters", field -> key.equals(parameterKey(current, field, source)),
                    TextFormat.shortDebugString(ModelConfig.newBuilder().putParameters(key, value).build()) + "\n");
            }
        }
        final ModelConfig parsed;
        try
        {
            parsed = ModelConfigParser.parse(edited, source);
        }
        catch (final ConfigException ex)
        {
            throw new IllegalStateException("the rewritten " + source + " does not parse: " + ex.getMessage(), ex);
        }
        if (!parsed.equals(target))
        {
            throw new IllegalStateException("the rewritten " + source + " does not hold the tuned configuration");
        }
        return edited;
    }

    private static String instanceGroups(final ModelConfig config)
    {
        final List<String> groups = new ArrayList<>();
        for (final ModelInstanceGroup group : config.getInstanceGroupList())
        {
            groups.add("  { " + TextFormat.shortDebugString(group) + " }");
        }
        return "instance_group [\n" + String.join(",\n", groups) + "\n]\n";
    }

    private static String dynamicBatching(final ModelDynamicBatching batching)
    {
        final String body = TextFormat.printer().printToString(batching);
        if (body.isBlank())
        {
            return "dynamic_batching { }\n";
        }
        final StringBuilder text = new StringBuilder("dynamic_batching {\n");
        for (final String line : body.split("\n"))
        {
            text.append("  ").append(line).append('\n');
        }
        return text.append("}\n").toString();
    }

    private static String parameterKey(final String text, final Field field, final String source)
    {
        try
        {
            final Map<String, ModelParameter> one = ModelConfigParser.parse(text.substring(field.start(),
                field.end()), source).getParametersMap();
            return one.isEmpty() ? null : one.keySet().iterator().next();
        }
        catch (final ConfigException ex)
        {
            return null;
        }
    }

    /** Which of the fields of a name a replacement concerns. */
    private interface Selector
    {
        boolean test(Field field);
    }

    /**
     * Replaces the selected fields of a name: the first gives way to {@code replacement} (whole lines when it stands
     * on lines of its own), the others are removed; with none, the replacement is appended.
     */
    private static String replace(final String text, final String name, final Selector selector,
        final String replacement)
    {
        final List<Field> fields = fields(text).stream()
            .filter(field -> field.name().equals(name) && selector.test(field)).toList();
        if (fields.isEmpty())
        {
            return replacement.isEmpty() ? text : text + replacement;
        }
        final StringBuilder edited = new StringBuilder(text);
        // From the last to the first, so that earlier offsets stay valid.
        for (int i = fields.size() - 1; i >= 0; i--)
        {
            final Field field = fields.get(i);
            final String with = i == 0 ? replacement : "";
            final int lineStart = lineStart(text, field.start());
            final int lineEnd = lineEnd(text, field.end());
            if (lineStart >= 0 && lineEnd >= 0)
            {
                edited.replace(lineStart, lineEnd, with);
            }
            else
            {
                edited.replace(field.start(), field.end(), with.strip());
            }
        }
        return edited.toString();
    }

    /** @return the start of the line when only blanks precede {@code at} on it, else -1 */
    private static int lineStart(final String text, final int at)
    {
        int i = at;
        while (i > 0 && (text.charAt(i - 1) == ' ' || text.charAt(i - 1) == '\t'))
        {
            i--;
        }
        return i == 0 || text.charAt(i - 1) == '\n' ? i : -1;
    }

    /** @return the position after the line's end when only blanks (and a separator) follow {@code at}, else -1 */
    private static int lineEnd(final String text, final int at)
    {
        int i = at;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t' || text.charAt(i) == ','
            || text.charAt(i) == ';' || text.charAt(i) == '\r'))
        {
            i++;
        }
        if (i == text.length())
        {
            return i;
        }
        return text.charAt(i) == '\n' ? i + 1 : -1;
    }

    /**
     * Finds the top-level fields of a text-format message: a name, an optional {@code :}, and a value — a block in
     * braces or angle brackets, a list in square brackets, or a scalar (a quoted string or a bare token).
     *
     * @param text the text, well formed (it was parsed before)
     * @return the fields in order
     */
    static List<Field> fields(final String text)
    {
        final List<Field> fields = new ArrayList<>();
        int i = skip(text, 0);
        while (i < text.length())
        {
            final int start = i;
            while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_'))
            {
                i++;
            }
            if (i == start)
            {
                // Not a field name (a stray separator): step over it.
                i = skip(text, i + 1);
                continue;
            }
            final String name = text.substring(start, i);
            i = skip(text, i);
            if (i < text.length() && text.charAt(i) == ':')
            {
                i = skip(text, i + 1);
            }
            i = valueEnd(text, i);
            fields.add(new Field(name, start, i));
            i = skip(text, i);
            while (i < text.length() && (text.charAt(i) == ',' || text.charAt(i) == ';'))
            {
                i = skip(text, i + 1);
            }
        }
        return fields;
    }

    private static int valueEnd(final String text, final int from)
    {
        if (from >= text.length())
        {
            return from;
        }
        final char first = text.charAt(from);
        if (first == '{' || first == '<' || first == '[')
        {
            int depth = 0;
            int i = from;
            while (i < text.length())
            {
                final char c = text.charAt(i);
                if (c == '"' || c == '\'')
                {
                    i = stringEnd(text, i);
                    continue;
                }
                if (c == '#')
                {
                    i = commentEnd(text, i);
                    continue;
                }
                if (c == '{' || c == '<' || c == '[')
                {
                    depth++;
                }
                else if (c == '}' || c == '>' || c == ']')
                {
                    depth--;
                    if (depth == 0)
                    {
                        return i + 1;
                    }
                }
                i++;
            }
            return i;
        }
        if (first == '"' || first == '\'')
        {
            int i = stringEnd(text, from);
            // Adjacent string literals concatenate.
            int next = skip(text, i);
            while (next < text.length() && (text.charAt(next) == '"' || text.charAt(next) == '\''))
            {
                i = stringEnd(text, next);
                next = skip(text, i);
            }
            return i;
        }
        int i = from;
        while (i < text.length() && !Character.isWhitespace(text.charAt(i)) && "#,;{}[]<>".indexOf(text.charAt(i))
            < 0)
        {
            i++;
        }
        return i;
    }

    private static int stringEnd(final String text, final int quote)
    {
        final char delimiter = text.charAt(quote);
        int i = quote + 1;
        while (i < text.length() && text.charAt(i) != delimiter && text.charAt(i) != '\n')
        {
            i += text.charAt(i) == '\\' ? 2 : 1;
        }
        return Math.min(text.length(), i + 1);
    }

    private static int commentEnd(final String text, final int hash)
    {
        final int newline = text.indexOf('\n', hash);
        return newline < 0 ? text.length() : newline;
    }

    /** Skips blanks and comments. */
    private static int skip(final String text, final int from)
    {
        int i = from;
        while (i < text.length())
        {
            final char c = text.charAt(i);
            if (c == '#')
            {
                i = commentEnd(text, i);
            }
            else if (Character.isWhitespace(c))
            {
                i++;
            }
            else
            {
                break;
            }
        }
        return i;
    }
}
