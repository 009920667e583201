package io.ingot.testing;

import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Triton's public repositories, extracted beside the project, for the tests that run Triton's own artifacts
 * unchanged (its QA corpora, its Python client library). A test finds them through the environment variable
 * {@value #VARIABLE}, else at {@code <project root>/../triton-sources} (a developer's full extraction), else at
 * {@code <project root>/third_party/triton}: the unchanged subset the project carries so that CI, which reaches no
 * GitHub, runs those tests too (its README names each file's repository and commit). A test whose files are in none
 * of them is skipped with a printed reason. The layout is the extraction's: {@code server/}, {@code client/},
 * {@code python_backend/}, ... and {@code py/}, Triton's pure-Python {@code tritonclient} package. Stateless;
 * thread-safe.
 */
public final class TritonSources
{
    /** The environment variable naming the folder. */
    public static final String VARIABLE = "INGOT_TRITON_SOURCES";

    private TritonSources()
    {
    }

    /** @return the folder when it exists */
    public static Optional<Path> find()
    {
        final Path folder = expected();
        return Files.isDirectory(folder) ? Optional.of(folder.toAbsolutePath().normalize()) : Optional.empty();
    }

    /**
     * @return where the folder is looked for: {@value #VARIABLE} when set; else the full extraction beside the
     * project's root when it exists; else the project's own {@code third_party/triton}
     */
    private static Path expected()
    {
        final String named = System.getenv(VARIABLE);
        if (named != null && !named.isBlank())
        {
            return Path.of(named);
        }
        final Path beside = projectRoot().resolveSibling("triton-sources");
        return Files.isDirectory(beside) ? beside : projectRoot().resolve("third_party").resolve("triton");
    }

    /**
     * @param relative a path inside the folder, e.g. {@code server/qa/L0_model_config}
     * @param purpose  what the test does with it, for the skip message
     * @return the path; the test is skipped (a JUnit assumption fails) with the reason when it is absent
     */
    public static Path require(final String relative, final String purpose)
    {
        final Optional<Path> folder = find();
        Assumptions.assumeTrue(folder.isPresent(), () -> "Triton's sources are not at " + expected() + " (" + VARIABLE
            + " names them, else <project root>/../triton-sources, else <project root>/third_party/triton): " + purpose
            + " is skipped");
        final Path path = folder.orElseThrow().resolve(relative);
        Assumptions.assumeTrue(Files.exists(path), () -> path + " is missing: " + purpose + " is skipped");
        return path;
    }

    /** @return the project's root: the nearest folder up from the working directory holding {@code tools/test.sh} */
    public static Path projectRoot()
    {
        Path folder = Path.of("").toAbsolutePath();
        while (folder != null)
        {
            if (Files.isRegularFile(folder.resolve("tools").resolve("test.sh")))
            {
                return folder;
            }
            folder = folder.getParent();
        }
        return Path.of("").toAbsolutePath();
    }
}
