package io.ingot.cuda;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Makes downcall handles for one native library, or, when the library could not be loaded, handles that throw the
 * loader's error on every call ({@link ThrowingHandles}: why not simply throw is explained there).
 */
final class NativeBinder
{
    private static final Linker LINKER = Linker.nativeLinker();

    private final LoadedLibrary library;
    private final NativeLibraryNotFoundException failure;

    private NativeBinder(final LoadedLibrary library, final NativeLibraryNotFoundException failure)
    {
        this.library = library;
        this.failure = failure;
    }

    /**
     * Loads {@code libraries} in order (dependencies first) and binds symbols in the last one. A library with a
     * dependency outside the system search path (cuBLAS needs cuBLASLt) loads only if the dependency was loaded
     * first by absolute path; {@code dlopen} then satisfies the dependency by soname.
     *
     * @param loader    where to look
     * @param libraries the libraries to load, the one to bind last
     * @return a binder; never throws for a missing library
     */
    static NativeBinder load(final NativeLibraryLoader loader, final NativeLibrary... libraries)
    {
        LoadedLibrary last = null;
        try
        {
            for (final NativeLibrary each : libraries)
            {
                last = loader.load(each);
            }
            return new NativeBinder(last, null);
        }
        catch (final NativeLibraryNotFoundException notFound)
        {
            return new NativeBinder(null, notFound);
        }
    }

    /**
     * @return the loaded library
     * @throws NativeLibraryNotFoundException (a fresh copy) when it could not be loaded
     */
    LoadedLibrary library()
    {
        if (failure != null)
        {
            throw new NativeLibraryNotFoundException(failure);
        }
        return library;
    }

    /** @return the loader's error, if the library could not be loaded */
    Optional<NativeLibraryNotFoundException> failure()
    {
        return Optional.ofNullable(failure);
    }

    /**
     * Makes a downcall handle for {@code symbol}.
     *
     * @param symbol     the exported name
     * @param descriptor the C signature
     * @param options    linker options (e.g. {@link Linker.Option#critical(boolean)})
     * @return the handle, or a handle of the same type that throws the load error (or an
     *         {@link UnsatisfiedLinkError} naming the symbol and library when the library lacks it)
     */
    @SuppressWarnings("restricted") // binding native functions is this class's job
    MethodHandle downcall(final String symbol, final FunctionDescriptor descriptor, final Linker.Option... options)
    {
        final MethodType type = descriptor.toMethodType();
        if (failure != null)
        {
            return failing(type, () -> new NativeLibraryNotFoundException(failure));
        }
        final Optional<MemorySegment> address = library.symbols().find(symbol);
        if (address.isEmpty())
        {
            final String message = "symbol " + symbol + " is not exported by " + library.location() + " ("
                + library.library().description() + "); Ingot's bindings need the headers' version of it";
            return failing(type, () -> new UnsatisfiedLinkError(message));
        }
        return LINKER.downcallHandle(address.get(), descriptor, options);
    }

    /**
     * Rethrows what an {@code invokeExact} threw: unchecked exceptions and errors unchanged (they are the load
     * errors and argument errors the caller should see); anything else cannot come out of a downcall.
     *
     * @param thrown what {@code invokeExact} threw
     * @return never returns normally; declared so that callers can write {@code throw NativeBinder.rethrow(t)}
     */
    static RuntimeException rethrow(final Throwable thrown)
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

    private static MethodHandle failing(final MethodType type, final Supplier<? extends Throwable> error)
    {
        return ThrowingHandles.of(type, error);
    }
}
