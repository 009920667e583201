package io.ingot.cuda;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The inputs of a native-library search, in the order they are searched:
 * <ol>
 *   <li>{@code extraDirs}: folders named explicitly (system property {@value #EXTRA_DIRS_PROPERTY}, a
 *       {@link File#pathSeparator}-separated list);</li>
 *   <li>{@code cudaHome}: {@code $CUDA_HOME/lib64}, then {@code $CUDA_HOME/lib};</li>
 *   <li>{@code standardDirs}: where the CUDA toolkit installs itself ({@code /usr/local/cuda/lib64});</li>
 *   <li>{@code ldLibraryPath}: every {@code LD_LIBRARY_PATH} entry;</li>
 *   <li>{@code pythonSiteDirs}: each Python {@code site-packages}/{@code dist-packages} folder, where the NVIDIA
 *       CUDA wheels put their libraries ({@link NativeLibrary#wheelDirs()} inside each);</li>
 *   <li>when {@code systemSearch} is true, the system {@code dlopen} search by soname
 *       ({@code ld.so.cache}, {@code /etc/ld.so.conf.d}, the default folders).</li>
 * </ol>
 * Every input is injectable, so that a test can search exactly where it wants; {@link #fromEnvironment()} reads
 * the real ones.
 *
 * @param extraDirs      folders searched first
 * @param cudaHome       the CUDA installation root ({@code $CUDA_HOME}), if any
 * @param standardDirs   the toolkit's standard library folders
 * @param ldLibraryPath  the {@code LD_LIBRARY_PATH} entries
 * @param pythonSiteDirs Python package folders that may hold NVIDIA wheels
 * @param systemSearch   whether to finish with the system {@code dlopen} search by soname
 */
public record LibrarySearchPath(
    List<Path> extraDirs,
    Optional<Path> cudaHome,
    List<Path> standardDirs,
    List<Path> ldLibraryPath,
    List<Path> pythonSiteDirs,
    boolean systemSearch)
{
    /** System property holding extra library folders, searched before everything else. */
    public static final String EXTRA_DIRS_PROPERTY = "ingot.native.path";

    /** Where the CUDA toolkit installs its libraries. */
    public static final Path STANDARD_CUDA_LIB = Path.of("/usr/local/cuda/lib64");

    /** Validates and copies the components. */
    public LibrarySearchPath
    {
        extraDirs = List.copyOf(extraDirs);
        Objects.requireNonNull(cudaHome, "cudaHome");
        standardDirs = List.copyOf(standardDirs);
        ldLibraryPath = List.copyOf(ldLibraryPath);
        pythonSiteDirs = List.copyOf(pythonSiteDirs);
    }

    /** @return a search path that searches nowhere; add places with the {@code with*} methods */
    public static LibrarySearchPath none()
    {
        return new LibrarySearchPath(List.of(), Optional.empty(), List.of(), List.of(), List.of(), false);
    }

    /**
     * Reads the search inputs of this process: {@value #EXTRA_DIRS_PROPERTY}, {@code CUDA_HOME} (or
     * {@code CUDA_PATH}), {@code /usr/local/cuda/lib64}, {@code LD_LIBRARY_PATH}, the Python package folders that
     * can be found cheaply, and the system search.
     *
     * @return the search path of this process
     */
    public static LibrarySearchPath fromEnvironment()
    {
        return fromEnvironment(System.getenv(), System.getProperty(EXTRA_DIRS_PROPERTY, ""),
            Path.of(System.getProperty("user.home", "/nonexistent")));
    }

    /**
     * Builds the search path from the given environment, so that a test can supply its own.
     *
     * @param env       environment variables ({@code CUDA_HOME}, {@code CUDA_PATH}, {@code LD_LIBRARY_PATH},
     *                  {@code VIRTUAL_ENV}, {@code CONDA_PREFIX} are read)
     * @param extraDirs a {@link File#pathSeparator}-separated list of folders searched first (may be empty)
     * @param userHome  the user's home folder (for {@code ~/.local/lib/python3.X/site-packages})
     * @return the search path
     */
    public static LibrarySearchPath fromEnvironment(final Map<String, String> env, final String extraDirs,
                                                    final Path userHome)
    {
        final String home = firstNonBlank(env.get("CUDA_HOME"), env.get("CUDA_PATH"));
        return new LibrarySearchPath(
            splitPath(extraDirs),
            home == null ? Optional.empty() : Optional.of(Path.of(home)),
            List.of(STANDARD_CUDA_LIB),
            splitPath(env.getOrDefault("LD_LIBRARY_PATH", "")),
            pythonSiteDirs(env, userHome),
            true);
    }

    /**
     * @param home the CUDA installation root
     * @return a copy that searches {@code home/lib64} and {@code home/lib}
     */
    public LibrarySearchPath withCudaHome(final Path home)
    {
        return new LibrarySearchPath(extraDirs, Optional.of(home), standardDirs, ldLibraryPath, pythonSiteDirs,
            systemSearch);
    }

    /**
     * @param dirs folders to search first
     * @return a copy with these extra folders
     */
    public LibrarySearchPath withExtraDirs(final List<Path> dirs)
    {
        return new LibrarySearchPath(dirs, cudaHome, standardDirs, ldLibraryPath, pythonSiteDirs, systemSearch);
    }

    /**
     * @param dirs the toolkit's standard library folders
     * @return a copy with these standard folders
     */
    public LibrarySearchPath withStandardDirs(final List<Path> dirs)
    {
        return new LibrarySearchPath(extraDirs, cudaHome, dirs, ldLibraryPath, pythonSiteDirs, systemSearch);
    }

    /**
     * @param dirs the {@code LD_LIBRARY_PATH} entries
     * @return a copy with these entries
     */
    public LibrarySearchPath withLdLibraryPath(final List<Path> dirs)
    {
        return new LibrarySearchPath(extraDirs, cudaHome, standardDirs, dirs, pythonSiteDirs, systemSearch);
    }

    /**
     * @param dirs Python package folders
     * @return a copy with these package folders
     */
    public LibrarySearchPath withPythonSiteDirs(final List<Path> dirs)
    {
        return new LibrarySearchPath(extraDirs, cudaHome, standardDirs, ldLibraryPath, dirs, systemSearch);
    }

    /**
     * @param enabled whether to finish with the system {@code dlopen} search
     * @return a copy with the system search switched on or off
     */
    public LibrarySearchPath withSystemSearch(final boolean enabled)
    {
        return new LibrarySearchPath(extraDirs, cudaHome, standardDirs, ldLibraryPath, pythonSiteDirs, enabled);
    }

    /**
     * One folder to look in, and why.
     *
     * @param dir    the folder
     * @param origin the search input it came from, for error messages
     */
    public record Candidate(Path dir, String origin)
    {
    }

    /**
     * Lists the folders to look in for {@code library}, in search order, without duplicates (the first origin of a
     * folder wins). The system search, if enabled, comes after all of them and is not listed.
     *
     * @param library what to look for (its {@link NativeLibrary#wheelDirs()} are used below each Python folder)
     * @return the folders, in order
     */
    public List<Candidate> candidates(final NativeLibrary library)
    {
        final List<Candidate> out = new ArrayList<>();
        final Set<Path> seen = new LinkedHashSet<>();
        for (final Path dir : extraDirs)
        {
            add(out, seen, dir, "-D" + EXTRA_DIRS_PROPERTY);
        }
        cudaHome.ifPresent(home ->
        {
            add(out, seen, home.resolve("lib64"), "$CUDA_HOME/lib64");
            add(out, seen, home.resolve("lib"), "$CUDA_HOME/lib");
        });
        for (final Path dir : standardDirs)
        {
            add(out, seen, dir, "CUDA toolkit default");
        }
        for (final Path dir : ldLibraryPath)
        {
            add(out, seen, dir, "LD_LIBRARY_PATH");
        }
        for (final Path site : pythonSiteDirs)
        {
            for (final String wheelDir : library.wheelDirs())
            {
                add(out, seen, site.resolve(wheelDir), "NVIDIA Python wheel in " + site);
            }
        }
        return out;
    }

    private static void add(final List<Candidate> out, final Set<Path> seen, final Path dir, final String origin)
    {
        final Path normal = dir.toAbsolutePath().normalize();
        if (seen.add(normal))
        {
            out.add(new Candidate(normal, origin));
        }
    }

    private static List<Path> splitPath(final String value)
    {
        final List<Path> dirs = new ArrayList<>();
        for (final String entry : value.split(File.pathSeparator))
        {
            // An empty LD_LIBRARY_PATH entry means "the current directory" to ld.so; searching the working
            // directory for CUDA is never what a user meant, so empty entries are dropped.
            if (!entry.isBlank())
            {
                dirs.add(Path.of(entry.strip()));
            }
        }
        return dirs;
    }

    private static String firstNonBlank(final String first, final String second)
    {
        if (first != null && !first.isBlank())
        {
            return first.strip();
        }
        return second != null && !second.isBlank() ? second.strip() : null;
    }

    /**
     * Finds Python package folders by listing a handful of known parents, never by running Python: the system
     * interpreters' {@code dist-packages}, {@code /usr/local}'s {@code site-packages} and {@code dist-packages},
     * the user's {@code ~/.local} and an active virtualenv or conda environment.
     */
    private static List<Path> pythonSiteDirs(final Map<String, String> env, final Path userHome)
    {
        final List<Path> sites = new ArrayList<>();
        final List<Path> libParents = new ArrayList<>();
        final String venv = env.get("VIRTUAL_ENV");
        if (venv != null && !venv.isBlank())
        {
            libParents.add(Path.of(venv.strip(), "lib"));
        }
        final String conda = env.get("CONDA_PREFIX");
        if (conda != null && !conda.isBlank())
        {
            libParents.add(Path.of(conda.strip(), "lib"));
        }
        libParents.add(userHome.resolve(".local/lib"));
        libParents.add(Path.of("/usr/local/lib"));
        libParents.add(Path.of("/usr/lib"));
        for (final Path parent : libParents)
        {
            for (final Path python : listPythonDirs(parent))
            {
                for (final String leaf : List.of("site-packages", "dist-packages"))
                {
                    final Path site = python.resolve(leaf);
                    if (Files.isDirectory(site))
                    {
                        sites.add(site);
                    }
                }
            }
        }
        return sites;
    }

    private static List<Path> listPythonDirs(final Path parent)
    {
        final List<Path> found = new ArrayList<>();
        if (!Files.isDirectory(parent))
        {
            return found;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent, "python3*"))
        {
            for (final Path entry : entries)
            {
                if (Files.isDirectory(entry))
                {
                    found.add(entry);
                }
            }
        }
        catch (final IOException | SecurityException unreadable)
        {
            // An unreadable parent simply contributes no folders; the error that matters is "library not found",
            // which lists what was searched.
            return found;
        }
        found.sort(null);
        return found;
    }
}
