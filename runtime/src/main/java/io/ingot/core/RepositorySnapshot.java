package io.ingot.core;

import io.ingot.config.ConfigException;
import io.ingot.repository.ModelRepository;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What the model directories of the repositories looked like at one moment, cheap to compare: for every model name
 * a fingerprint of its directory. A poll compares two snapshots to find the models added, removed and changed.
 *
 * <p>A fingerprint lists every directory below the model directory by name and every file with its size and
 * modification time (following links), and the content hash of each configuration ({@code config.pbtxt},
 * {@code configs/*.pbtxt}), so that an edit within the file system's timestamp granularity is still seen. A name
 * found in more than one repository has a fingerprint naming all its directories, so becoming or ceasing to be a
 * duplicate is a change. A directory that cannot be read gets a fingerprint saying why (and is prepared again, to
 * report the failure, when that changes).
 * Immutable.
 */
final class RepositorySnapshot
{
    private final Map<String, List<Path>> directories;
    private final Map<String, String> fingerprints;

    private RepositorySnapshot(final Map<String, List<Path>> directories, final Map<String, String> fingerprints)
    {
        this.directories = directories;
        this.fingerprints = fingerprints;
    }

    /** Triton's reason for a name found in more than one repository. */
    static final String DUPLICATE = "model appears in two or more repositories";

    private static final Logger LOG = System.getLogger(RepositorySnapshot.class.getName());

    private static final RepositorySnapshot EMPTY = new RepositorySnapshot(Map.of(), Map.of());

    /** @return a snapshot of no repository */
    static RepositorySnapshot empty()
    {
        return EMPTY;
    }

    /**
     * Lists the model directories of the repositories, without fingerprints (for the repository index).
     *
     * @param roots the repositories
     * @return the listing; fingerprints are empty
     * @throws ConfigException when a repository cannot be listed
     */
    static RepositorySnapshot list(final List<Path> roots) throws ConfigException
    {
        final Map<String, List<Path>> byName = new TreeMap<>();
        for (final Path root : roots)
        {
            for (final Path directory : ModelRepository.modelDirectories(root))
            {
                byName.computeIfAbsent(directory.getFileName().toString(), name -> new ArrayList<>()).add(directory);
            }
        }
        return new RepositorySnapshot(Collections.unmodifiableMap(byName), Map.of());
    }

    /**
     * @param roots the repositories
     * @return their model directories by name, or an empty snapshot (logged) when they cannot be listed
     */
    static RepositorySnapshot listOrEmpty(final List<Path> roots)
    {
        try
        {
            return list(roots);
        }
        catch (final ConfigException ex)
        {
            LOG.log(Level.WARNING, "cannot list the model repositories: " + ex.getMessage());
            return EMPTY;
        }
    }

    /**
     * Lists and fingerprints the model directories of the repositories.
     *
     * @param roots the repositories
     * @return the snapshot
     * @throws ConfigException when a repository cannot be listed
     */
    static RepositorySnapshot take(final List<Path> roots) throws ConfigException
    {
        final RepositorySnapshot listing = list(roots);
        final Map<String, String> fingerprints = new TreeMap<>();
        listing.directories.forEach((name, paths) -> fingerprints.put(name, paths.size() == 1
            ? fingerprint(paths.getFirst()) : "in more than one repository: " + paths));
        return new RepositorySnapshot(listing.directories, Collections.unmodifiableMap(fingerprints));
    }

    /** @return the model names, sorted */
    Set<String> names()
    {
        return directories.keySet();
    }

    /**
     * @param name a model name
     * @return its directories, one per repository that has it; empty when none has
     */
    List<Path> directories(final String name)
    {
        return directories.getOrDefault(name, List.of());
    }

    /**
     * @param name a model name
     * @return whether that name has a directory in more than one repository
     */
    boolean isDuplicate(final String name)
    {
        final List<Path> paths = directories.get(name);
        return paths != null && paths.size() > 1;
    }

    /**
     * @param previous the snapshot before this one
     * @return the names whose directory appeared, disappeared or changed since {@code previous}, sorted
     */
    Set<String> changedSince(final RepositorySnapshot previous)
    {
        final Set<String> changed = new TreeSet<>();
        final Set<String> all = new TreeSet<>(names());
        all.addAll(previous.names());
        for (final String name : all)
        {
            if (!Objects.equals(fingerprints.get(name), previous.fingerprints.get(name)))
            {
                changed.add(name);
            }
        }
        return changed;
    }

    private static String fingerprint(final Path modelDirectory)
    {
        final StringBuilder print = new StringBuilder(256);
        try (Stream<Path> files = Files.walk(modelDirectory, FileVisitOption.FOLLOW_LINKS))
        {
            for (final Path file : (Iterable<Path>) files.sorted()::iterator)
            {
                final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                final Path relative = modelDirectory.relativize(file);
                if (attributes.isDirectory())
                {
                    // Listed by name, so that an empty new version directory is a change.
                    print.append(relative).append("/\n");
                    continue;
                }
                print.append(relative).append(' ').append(attributes.size()).append(' ')
                    .append(attributes.lastModifiedTime().toInstant());
                if (isConfiguration(relative))
                {
                    print.append(' ').append(Arrays.hashCode(Files.readAllBytes(file)));
                }
                print.append('\n');
            }
        }
        catch (final IOException | RuntimeException e)
        {
            // Files.walk reports I/O failures and link loops as unchecked exceptions.
            return "unreadable: " + e;
        }
        return print.toString();
    }

    private static boolean isConfiguration(final Path relative)
    {
        final String name = relative.getFileName().toString();
        return relative.getNameCount() == 1 ? name.equals(ModelRepository.CONFIG_FILENAME)
            : relative.getNameCount() == 2 && relative.getName(0).toString().equals(ModelRepository.CONFIGS_DIRECTORY)
                && name.endsWith(".pbtxt");
    }
}
