package io.ingot.perf.tune;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;

import java.util.Arrays;
import java.util.List;

/**
 * A unified diff ({@code diff -u}, {@code git apply} and {@code patch -p1} read it) between two versions of a
 * file, computed with java-diff-utils.
 */
public final class ConfigDiff
{
    private static final int CONTEXT_LINES = 3;

    private ConfigDiff()
    {
    }

    /**
     * @param path     the file's path relative to where the patch is applied ({@code resnet50/config.pbtxt})
     * @param original the file's text now
     * @param revised  its text after the change
     * @return the diff, with {@code a/} and {@code b/} prefixes; empty when the texts are equal
     */
    public static String unified(final String path, final String original, final String revised)
    {
        final List<String> before = lines(original);
        final List<String> after = lines(revised);
        final Patch<String> patch = DiffUtils.diff(before, after);
        if (patch.getDeltas().isEmpty())
        {
            return "";
        }
        final List<String> diff = UnifiedDiffUtils.generateUnifiedDiff("a/" + path, "b/" + path, before, patch,
            CONTEXT_LINES);
        return String.join("\n", diff) + "\n";
    }

    private static List<String> lines(final String text)
    {
        final String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return body.isEmpty() ? List.of() : Arrays.asList(body.split("\n", -1));
    }
}
