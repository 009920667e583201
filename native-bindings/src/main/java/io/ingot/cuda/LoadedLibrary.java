package io.ingot.cuda;

import java.lang.foreign.SymbolLookup;
import java.util.Objects;

/**
 * A native library that the {@link NativeLibraryLoader} loaded. It stays loaded for the life of the JVM (it is
 * bound to {@link java.lang.foreign.Arena#global()}), so symbols found in it never dangle.
 *
 * @param library  what was looked for
 * @param location where it was loaded from: an absolute path, or {@code dlopen("soname")} for the system search
 * @param symbols  the library's symbols
 */
public record LoadedLibrary(NativeLibrary library, String location, SymbolLookup symbols)
{
    /** Validates that no component is null. */
    public LoadedLibrary
    {
        Objects.requireNonNull(library, "library");
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(symbols, "symbols");
    }
}
