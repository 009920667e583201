package io.ingot.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps the READMEs' references to the code true: every fully qualified Ingot class a README names in backticks
 * ({@code `io.ingot.api.InferenceRequest`}) has its source file, and every source path it names
 * ({@code `server/src/main/proto`}, or {@code `src/test/java/...`} relative to the README's module) exists. These are
 * the references that go stale when code moves (a class renamed, a module split); a plain class name or a prose
 * sentence is left to review, since READMEs also name Triton's, the JDK's and the engines' classes.
 *
 * <p>Classes generated from a {@code .proto} file count as present when their package is one a tracked {@code .proto}
 * declares ({@code option java_package}). Paths with a placeholder ({@code *}, {@code <...>}, {@code {...}},
 * {@code ...}) are not checked. Reads files only; no build output is needed.
 */
class ReadmeReferencesTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern BACKTICKED = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern QUALIFIED_CLASS = Pattern.compile("\\bio\\.ingot\\.(?:[a-z0-9_]+\\.)+[A-Z]\\w*");
    private static final Pattern SOURCE_PATH =
        Pattern.compile("(?:^|[\\s(])((?:[\\w.-]+/)*src/(?:main|test)/[\\w./-]*[\\w-])");
    private static final Pattern JAVA_PACKAGE = Pattern.compile("option\\s+java_package\\s*=\\s*\"([^\"]+)\"");

    @Test
    void everyClassAndSourcePathAReadmeNamesExists() throws IOException
    {
        final List<Path> tracked = sources();
        final Set<String> javaFiles = new HashSet<>();
        final Set<String> protoPackages = new HashSet<>();
        for (final Path file : tracked)
        {
            final String path = ROOT.relativize(file).toString().replace('\\', '/');
            final int java = path.indexOf("/java/");
            if (path.endsWith(".java") && java >= 0)
            {
                javaFiles.add(path.substring(java + "/java/".length()));
            }
            if (path.endsWith(".proto"))
            {
                final Matcher option = JAVA_PACKAGE.matcher(Files.readString(file));
                while (option.find())
                {
                    protoPackages.add(option.group(1));
                }
            }
        }
        final List<String> problems = new ArrayList<>();
        int checked = 0;
        for (final Path readme : tracked.stream().filter(p -> p.getFileName().toString().equals("README.md")).toList())
        {
            final String text = Files.readString(readme);
            final Path base = readme.getParent();
            final Matcher quoted = BACKTICKED.matcher(text);
            while (quoted.find())
            {
                final String token = quoted.group(1);
                final String where = ROOT.relativize(readme) + ":" + line(text, quoted.start()) + ": ";
                final Matcher qualified = QUALIFIED_CLASS.matcher(token);
                while (qualified.find())
                {
                    checked++;
                    final String name = qualified.group();
                    final String packageName = name.substring(0, name.lastIndexOf('.'));
                    if (!javaFiles.contains(name.replace('.', '/') + ".java") && !protoPackages.contains(packageName))
                    {
                        problems.add(where + "class " + name + " has no source file");
                    }
                }
                final Matcher source = SOURCE_PATH.matcher(token);
                while (source.find())
                {
                    final String path = source.group(1);
                    if (path.contains("*") || path.contains("<") || path.contains("{") || path.contains("..."))
                    {
                        continue;
                    }
                    checked++;
                    if (!Files.exists(base.resolve(path)) && !Files.exists(ROOT.resolve(path)))
                    {
                        problems.add(where + "path " + path + " exists neither beside the README nor at the root");
                    }
                }
            }
        }
        assertTrue(checked > 50, "the READMEs name classes and source paths: found only " + checked
            + " under " + ROOT);
        assertTrue(problems.isEmpty(), "README references that lead nowhere:\n" + String.join("\n", problems));
    }

    /**
     * @return every file of the project's own, outside build output, hidden folders and Node modules (which are not
     *     entered at all, so that files other tests write and delete meanwhile are never seen)
     */
    private static List<Path> sources() throws IOException
    {
        final List<Path> files = new ArrayList<>();
        Files.walkFileTree(ROOT, new SimpleFileVisitor<>()
        {
            @Override
            public FileVisitResult preVisitDirectory(final Path dir, final BasicFileAttributes attributes)
            {
                final String name = dir.equals(ROOT) ? "" : dir.getFileName().toString();
                return name.equals("target") || name.equals("node_modules") || name.startsWith(".")
                    ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes)
            {
                if (attributes.isRegularFile())
                {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(final Path file, final IOException failure)
            {
                // A file that vanished or cannot be read is not one of the READMEs' targets.
                return FileVisitResult.CONTINUE;
            }
        });
        return files;
    }

    private static int line(final String text, final int offset)
    {
        int line = 1;
        for (int i = 0; i < offset; i++)
        {
            if (text.charAt(i) == '\n')
            {
                line++;
            }
        }
        return line;
    }
}
