package io.ingot.benchmarks;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark pages keep their promises: BENCHMARKS.md stays a front page (at most 400 lines, every target's status
 * one of met, not met or not run), and every relative link of it and of {@code docs/benchmarks/} leads to a file that
 * exists and, for a Markdown file with an anchor, to a heading that GitHub gives that anchor.
 */
class BenchmarkPagesTest
{
    private static final int MOST_FRONT_PAGE_LINES = 400;
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern STATUS = Pattern.compile("\\*\\*(met|not met|not run)\\*\\*.*");

    private final Path root = repositoryRoot();

    @Test
    void theFrontPageHasAtMost400Lines() throws IOException
    {
        final long lines = Files.readAllLines(root.resolve("BENCHMARKS.md")).size();
        assertTrue(lines <= MOST_FRONT_PAGE_LINES, "BENCHMARKS.md has " + lines + " lines, more than "
            + MOST_FRONT_PAGE_LINES + ": move the runs and their reading to a file under docs/benchmarks/ and keep "
            + "one row per target");
    }

    @Test
    void everyTargetHasAStatusOfMetNotMetOrNotRun() throws IOException
    {
        final List<String> lines = Files.readAllLines(root.resolve("BENCHMARKS.md"));
        final int start = lines.indexOf("## Targets");
        assertTrue(start >= 0, "BENCHMARKS.md has no '## Targets' section");
        int rows = 0;
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++)
        {
            final String line = lines.get(i);
            if (!line.startsWith("| ") || line.startsWith("| Target ") || line.startsWith("| **"))
            {
                continue; // not a row, the header, or a group's title row
            }
            final String[] cells = line.split(" \\| ");
            assertEquals(5, cells.length, "a target row has five cells: " + line);
            assertTrue(STATUS.matcher(cells[2]).matches(),
                "the status of a target starts with **met**, **not met** or **not run**: " + line);
            rows++;
        }
        assertTrue(rows > 10, "the Targets table has only " + rows + " rows");
    }

    @Test
    void everyRelativeLinkOfTheBenchmarkPagesResolves() throws IOException
    {
        final List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("BENCHMARKS.md"));
        try (Stream<Path> files = Files.list(root.resolve("docs/benchmarks")))
        {
            files.filter(file -> file.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        final Map<Path, Set<String>> anchorsOf = new HashMap<>();
        final List<String> broken = new ArrayList<>();
        for (final Path page : pages)
        {
            final Matcher link = LINK.matcher(Files.readString(page));
            while (link.find())
            {
                final String target = link.group(1);
                if (target.startsWith("http://") || target.startsWith("https://"))
                {
                    continue;
                }
                final int hash = target.indexOf('#');
                final String file = hash < 0 ? target : target.substring(0, hash);
                final Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(resolved))
                {
                    broken.add(root.relativize(page) + ": " + target + " (no such file)");
                }
                else if (hash >= 0 && resolved.toString().endsWith(".md")
                    && !anchorsOf.computeIfAbsent(resolved, BenchmarkPagesTest::anchors)
                        .contains(target.substring(hash + 1)))
                {
                    broken.add(root.relativize(page) + ": " + target + " (no such heading)");
                }
            }
        }
        assertEquals(List.of(), broken, "links that lead nowhere");
    }

    /**
     * @param page a Markdown file
     * @return the anchors GitHub gives its headings: lower case, punctuation dropped, spaces as hyphens, a repeated
     *     one numbered
     */
    private static Set<String> anchors(final Path page)
    {
        final Set<String> anchors = new HashSet<>();
        final Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        try
        {
            for (final String line : Files.readAllLines(page))
            {
                if (line.startsWith("```"))
                {
                    fenced = !fenced;
                }
                if (fenced || !line.startsWith("#"))
                {
                    continue;
                }
                final String slug = line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                final int repeats = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(repeats == 0 ? slug : slug + "-" + repeats);
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot read " + page, ex);
        }
        return anchors;
    }

    /** @return the repository's root: the first folder up from the working directory that holds BENCHMARKS.md */
    private static Path repositoryRoot()
    {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent())
        {
            if (Files.exists(dir.resolve("BENCHMARKS.md")))
            {
                return dir;
            }
        }
        throw new IllegalStateException("no BENCHMARKS.md above " + Path.of("").toAbsolutePath());
    }
}
