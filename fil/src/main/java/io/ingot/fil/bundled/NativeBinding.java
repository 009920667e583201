package io.ingot.fil.bundled;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One bundled library, loaded (or not, with the reason), and the downcall handles bound in it. A library that cannot
 * be located or loaded does not fail class initialisation of the binding that holds this object: every handle made
 * from it throws a fresh {@link NativeLibraryUnavailableException} with the reason instead, so each model that needs
 * it fails to load with that message while the rest of the server keeps serving.
 *
 * <p>Loaded libraries belong to {@link Arena#global()}: they are never unloaded, so handles stay valid. Thread-safe
 * once built; {@link #downcall} is meant for static initialisers.
 */
public final class NativeBinding
{
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle RAISE;

    static
    {
        try
        {
            RAISE = MethodHandles.lookup().findStatic(NativeBinding.class, "raise",
                MethodType.methodType(void.class, String.class));
        }
        catch (final ReflectiveOperationException impossible)
        {
            throw new ExceptionInInitializerError(impossible);
        }
    }

    private final BundledLibrary library;
    private final SymbolLookup symbols;
    private final Path location;
    private final String failure;
    private final List<String> bound = new ArrayList<>();
    private final List<String> missing = new ArrayList<>();

    private NativeBinding(final BundledLibrary library, final SymbolLookup symbols, final Path location,
        final String failure)
    {
        this.library = library;
        this.symbols = symbols;
        this.location = location;
        this.failure = failure;
    }

    /**
     * Locates and loads a library; never throws for a library that cannot be had.
     *
     * @param library what to load
     * @return the binding, loaded or holding the reason it is not
     */
    @SuppressWarnings("restricted") // loading the engine's own library is this class's job
    public static NativeBinding load(final BundledLibrary library)
    {
        final Path file;
        try
        {
            file = library.locate();
        }
        catch (final NativeLibraryUnavailableException ex)
        {
            return new NativeBinding(library, null, null, ex.getMessage());
        }
        try
        {
            return new NativeBinding(library, SymbolLookup.libraryLookup(file, Arena.global()), file, null);
        }
        catch (final IllegalArgumentException | IllegalCallerException ex)
        {
            return new NativeBinding(library, null, file, library.unavailable("dlopen(" + file + ") failed: "
                + ex.getMessage()).getMessage());
        }
    }

    /**
     * Makes a downcall handle. Call from a static initialiser, once per function.
     *
     * @param name       the exported C name
     * @param descriptor its C signature
     * @param options    linker options
     * @return the handle; one that throws {@link NativeLibraryUnavailableException} when the library is not loaded
     *         or does not export {@code name}
     */
    @SuppressWarnings("restricted") // binding the engine's own functions is this class's job
    public synchronized MethodHandle downcall(final String name, final FunctionDescriptor descriptor,
        final Linker.Option... options)
    {
        bound.add(name);
        final MethodType type = descriptor.toMethodType();
        if (failure != null)
        {
            return failing(type, failure);
        }
        final Optional<MemorySegment> address = symbols.find(name);
        if (address.isEmpty())
        {
            missing.add(name);
            return failing(type, library.unavailable(location + " does not export " + name).getMessage());
        }
        return LINKER.downcallHandle(address.get(), descriptor, options);
    }

    /** @return true when the library loaded and exported every function bound so far */
    public synchronized boolean isAvailable()
    {
        return failure == null && missing.isEmpty();
    }

    /** @return why the library cannot be used, or empty when it can */
    public synchronized Optional<String> unavailableReason()
    {
        if (failure != null)
        {
            return Optional.of(failure);
        }
        if (!missing.isEmpty())
        {
            return Optional.of(library.unavailable(location + " lacks " + missing).getMessage());
        }
        return Optional.empty();
    }

    /**
     * @throws NativeLibraryUnavailableException when the library cannot be used, with the reason
     */
    public void requireAvailable()
    {
        final Optional<String> reason = unavailableReason();
        if (reason.isPresent())
        {
            throw new NativeLibraryUnavailableException(reason.get());
        }
    }

    /** @return the file the library was loaded from, when it was */
    public Optional<Path> location()
    {
        return failure == null ? Optional.of(location) : Optional.empty();
    }

    /** @return the C names bound so far, for tests that check them against the library's exports */
    public synchronized List<String> boundNames()
    {
        return List.copyOf(bound);
    }

    /**
     * Rethrows what an {@code invokeExact} of a handle of this class threw: unchecked exceptions and errors as they
     * are (the library's unavailability, argument errors).
     *
     * @param thrown what {@code invokeExact} threw
     * @return never returns normally; declared so that callers can write {@code throw rethrow(t)}
     */
    public static RuntimeException rethrow(final Throwable thrown)
    {
        if (thrown instanceof RuntimeException unchecked)
        {
            throw unchecked;
        }
        if (thrown instanceof Error error)
        {
            throw error;
        }
        throw new IllegalStateException("a downcall threw a checked exception, which FFM never does", thrown);
    }

    /**
     * Reads a library's error message (a NUL-terminated string the library owns) and cuts it to {@code limit}
     * characters, so that a huge native message cannot flood a log.
     *
     * @param text  the {@code const char *} the library returned
     * @param limit the most characters kept
     * @return the message, stripped, with {@code ...} where it was cut
     */
    @SuppressWarnings("restricted") // the message is a NUL-terminated string of unknown length
    public static String message(final MemorySegment text, final int limit)
    {
        if (text.equals(MemorySegment.NULL))
        {
            return "(no message)";
        }
        final String message = text.reinterpret(Long.MAX_VALUE).getString(0).strip();
        return message.length() > limit ? message.substring(0, limit) + "..." : message;
    }

    private static MethodHandle failing(final MethodType type, final String message)
    {
        // The void "raise" runs first and always throws; the empty target only gives the handle its exact type.
        return MethodHandles.foldArguments(MethodHandles.empty(type), RAISE.bindTo(message));
    }

    @SuppressWarnings("unused") // called through RAISE
    private static void raise(final String message)
    {
        throw new NativeLibraryUnavailableException(message);
    }
}
