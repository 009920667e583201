package io.ingot.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Finds and loads native libraries along a {@link LibrarySearchPath}: the first place that holds a loadable file
 * wins. A file that exists but cannot be loaded (wrong architecture, missing dependency, not a library) is recorded
 * and the search goes on. When nothing loads, a {@link NativeLibraryNotFoundException} lists every place tried.
 *
 * <p>Loaded libraries are bound to {@link Arena#global()}: they are never unloaded, so a symbol handed out once
 * stays valid. Loading the same file twice is harmless ({@code dlopen} reference-counts it).
 */
public final class NativeLibraryLoader
{
    private final LibrarySearchPath searchPath;

    /**
     * @param searchPath where to look
     */
    public NativeLibraryLoader(final LibrarySearchPath searchPath)
    {
        this.searchPath = Objects.requireNonNull(searchPath, "searchPath");
    }

    /** @return a loader that searches this process's real places ({@link LibrarySearchPath#fromEnvironment()}) */
    public static NativeLibraryLoader fromEnvironment()
    {
        return new NativeLibraryLoader(LibrarySearchPath.fromEnvironment());
    }

    /** @return where this loader looks */
    public LibrarySearchPath searchPath()
    {
        return searchPath;
    }

    /**
     * Loads {@code library} from the first place along the search path that holds a loadable file.
     *
     * @param library what to load
     * @return the loaded library and where it came from
     * @throws NativeLibraryNotFoundException when no place yields a loadable library; lists every place tried
     */
    @SuppressWarnings("restricted") // loading native libraries is this class's job
    public LoadedLibrary load(final NativeLibrary library)
    {
        final List<NativeLibraryNotFoundException.Attempt> attempts = new ArrayList<>();
        for (final LibrarySearchPath.Candidate candidate : searchPath.candidates(library))
        {
            final Path file = candidate.dir().resolve(library.fileName());
            if (!Files.exists(file))
            {
                attempts.add(new NativeLibraryNotFoundException.Attempt(file.toString(), candidate.origin(),
                    "not present"));
                continue;
            }
            try
            {
                final SymbolLookup symbols = SymbolLookup.libraryLookup(file, Arena.global());
                return new LoadedLibrary(library, file.toString(), symbols);
            }
            catch (final IllegalArgumentException | IllegalCallerException | SecurityException failure)
            {
                attempts.add(new NativeLibraryNotFoundException.Attempt(file.toString(), candidate.origin(),
                    "present but not loadable: " + failure.getMessage()));
            }
        }
        if (searchPath.systemSearch())
        {
            final String place = "dlopen(\"" + library.fileName() + "\")";
            try
            {
                final SymbolLookup symbols = SymbolLookup.libraryLookup(library.fileName(), Arena.global());
                return new LoadedLibrary(library, place, symbols);
            }
            catch (final IllegalArgumentException | IllegalCallerException | SecurityException failure)
            {
                attempts.add(new NativeLibraryNotFoundException.Attempt(place,
                    "system search: ld.so.cache, /etc/ld.so.conf.d, default folders", failure.getMessage()));
            }
        }
        throw new NativeLibraryNotFoundException(library, attempts);
    }
}
