package io.ingot.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps ARCHITECTURE.md's account of a request's path true to the tree: the numbered list under "The path of one
 * request" names at most 15 files, numbered 1, 2, 3, ..., each by its path from the project's root, and each of them
 * is an existing main-source file.
 */
class ArchitectureDocumentTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String SECTION = "## The path of one request";
    private static final Pattern ENTRY = Pattern.compile("^(\\d+)\\. `([^`]+)`");

    @Test
    void theRequestPathListsAtMostFifteenExistingFiles() throws IOException
    {
        final List<String> files = requestPath(Files.readAllLines(ROOT.resolve("ARCHITECTURE.md")));
        assertFalse(files.isEmpty(), "ARCHITECTURE.md has no numbered list of files under '" + SECTION + "'");
        assertTrue(files.size() <= 15, "ARCHITECTURE.md's request path lists " + files.size()
            + " files, more than 15: " + files);
        for (final String file : files)
        {
            final Path path = ROOT.resolve(file).normalize();
            assertTrue(path.startsWith(ROOT) && Files.isRegularFile(path), "ARCHITECTURE.md's request path names '"
                + file + "', which is not a file of the project");
            assertTrue(file.contains("/src/main/java/") && file.endsWith(".java"), "ARCHITECTURE.md's request path "
                + "names '" + file + "', which is not main source");
        }
    }

    /** The paths the section's numbered list names, in order, checking that the numbers run 1, 2, 3, .... */
    private static List<String> requestPath(final List<String> lines)
    {
        final List<String> files = new ArrayList<>();
        boolean inSection = false;
        for (final String line : lines)
        {
            if (line.startsWith("## "))
            {
                inSection = line.strip().equals(SECTION);
                continue;
            }
            final Matcher entry = ENTRY.matcher(line);
            if (inSection && entry.find())
            {
                assertEquals(files.size() + 1, Integer.parseInt(entry.group(1)), "ARCHITECTURE.md's request path is "
                    + "numbered out of order at: " + line);
                files.add(entry.group(2));
            }
        }
        return files;
    }
}
