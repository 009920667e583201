package io.ingot.trt.shim;

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

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * FFM binding of {@code ingot_trt_shim.h}: one {@code static final} downcall handle per shim function, resolved
 * once, in the library that {@link ShimLocation#fromEnvironment()} names. The real shim wraps TensorRT 10; the
 * test double {@code fake_trt_shim.c} implements the same header, and either is bound by the same code.
 *
 * <p>The methods here are the raw C calls with exact Java types: handles and C strings are
 * {@link MemorySegment}s, failures are reported as the C functions report them (null, {@code -1}, {@code 0}) and
 * the reason is in {@link #lastError()} on the same thread. {@link TrtRuntime}, {@link TrtCudaEngine} and
 * {@link TrtExecutionContext} turn these into checked objects and exceptions.
 *
 * <p>No handle is {@link Linker.Option#critical(boolean) critical}: TensorRT may call the logger upcall from inside
 * any of these calls.
 *
 * <p>When the library cannot be loaded (not built, TensorRT missing, a wrong path), class initialisation still
 * succeeds; {@link #isAvailable()} is false, {@link #unavailableReason()} says why, and every call throws a
 * {@link TrtException} with that reason.
 */
public final class TrtShim
{
    /** Dimensions a shape out-parameter must hold ({@code INGOT_TRT_MAX_DIMS}). */
    public static final int MAX_DIMS = 8;
    /** Bytes of a shape out-parameter ({@code int64_t[8]}). */
    public static final long DIMS_BYTES = MAX_DIMS * Long.BYTES;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Binding BINDING = Binding.load(ShimLocation.fromEnvironment());

    private static final MethodHandle LIB_VERSION = BINDING.downcall("ingot_trt_lib_version",
        FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle HEADER_VERSION = BINDING.downcall("ingot_trt_header_version",
        FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle DESCRIBE = BINDING.downcall("ingot_trt_describe",
        FunctionDescriptor.of(ADDRESS));
    private static final MethodHandle LAST_ERROR = BINDING.downcall("ingot_trt_last_error",
        FunctionDescriptor.of(ADDRESS));
    private static final MethodHandle LOGGER_CREATE = BINDING.downcall("ingot_trt_logger_create",
        FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
    private static final MethodHandle LOGGER_DESTROY = BINDING.downcall("ingot_trt_logger_destroy",
        FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle RUNTIME_CREATE = BINDING.downcall("ingot_trt_runtime_create",
        FunctionDescriptor.of(ADDRESS, ADDRESS));
    private static final MethodHandle RUNTIME_DESTROY = BINDING.downcall("ingot_trt_runtime_destroy",
        FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle ENGINE_DESERIALIZE = BINDING.downcall("ingot_trt_engine_deserialize",
        FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));
    private static final MethodHandle ENGINE_DESTROY = BINDING.downcall("ingot_trt_engine_destroy",
        FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle ENGINE_NB_IO = BINDING.downcall("ingot_trt_engine_nb_io",
        FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle ENGINE_IO_NAME = BINDING.downcall("ingot_trt_engine_io_name",
        FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
    private static final MethodHandle ENGINE_IO_MODE = BINDING.downcall("ingot_trt_engine_io_mode",
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle ENGINE_DTYPE = BINDING.downcall("ingot_trt_engine_dtype",
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle ENGINE_FORMAT = BINDING.downcall("ingot_trt_engine_format",
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle ENGINE_IS_SHAPE_IO = BINDING.downcall("ingot_trt_engine_is_shape_io",
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle ENGINE_SHAPE = BINDING.downcall("ingot_trt_engine_shape",
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle ENGINE_NB_PROFILES = BINDING.downcall("ingot_trt_engine_nb_profiles",
        FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle ENGINE_PROFILE_SHAPE = BINDING.downcall("ingot_trt_engine_profile_shape",
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle CONTEXT_CREATE = BINDING.downcall("ingot_trt_context_create",
        FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
    private static final MethodHandle CONTEXT_DESTROY = BINDING.downcall("ingot_trt_context_destroy",
        FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle CONTEXT_SET_PROFILE_ASYNC = BINDING.downcall(
        "ingot_trt_context_set_profile_async", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
    private static final MethodHandle CONTEXT_SET_INPUT_SHAPE = BINDING.downcall(
        "ingot_trt_context_set_input_shape", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
    private static final MethodHandle CONTEXT_TENSOR_SHAPE = BINDING.downcall("ingot_trt_context_tensor_shape",
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle CONTEXT_SET_TENSOR_ADDRESS = BINDING.downcall(
        "ingot_trt_context_set_tensor_address", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle CONTEXT_ENQUEUE_V3 = BINDING.downcall("ingot_trt_context_enqueue_v3",
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    /** Names of every function of {@code ingot_trt_shim.h} this class binds, for consistency checks. */
    public static final List<String> BOUND_FUNCTIONS = List.copyOf(BINDING.names);

    private TrtShim()
    {
    }

    /** @return true when the shim library was loaded and exports every function */
    public static boolean isAvailable()
    {
        return BINDING.failure == null && BINDING.missing.isEmpty();
    }

    /** @return why the shim cannot be used, or empty when it can */
    public static Optional<String> unavailableReason()
    {
        if (BINDING.failure != null)
        {
            return Optional.of(BINDING.failure);
        }
        if (!BINDING.missing.isEmpty())
        {
            return Optional.of("the TensorRT shim at " + BINDING.location + " lacks " + BINDING.missing
                + "; rebuild it from this version's trt/src/main/native/ingot_trt_shim.cpp");
        }
        return Optional.empty();
    }

    /**
     * @throws TrtException when the shim cannot be used, with the reason
     */
    public static void requireAvailable()
    {
        final Optional<String> reason = unavailableReason();
        if (reason.isPresent())
        {
            throw new TrtException(reason.get());
        }
    }

    /** @return where the shim was loaded from (a path or {@code dlopen("...")}), or empty when it was not loaded */
    public static Optional<String> location()
    {
        return Optional.ofNullable(BINDING.location);
    }

    /** @return {@code ingot_trt_lib_version()}: the loaded TensorRT's version, {@code major*10000+minor*100+patch} */
    public static int libVersion()
    {
        try
        {
            return (int) LIB_VERSION.invokeExact();
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @return {@code ingot_trt_header_version()}: the TensorRT headers' version the shim was compiled against */
    public static int headerVersion()
    {
        try
        {
            return (int) HEADER_VERSION.invokeExact();
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @return {@code ingot_trt_describe()}: what the loaded shim wraps */
    public static String describe()
    {
        try
        {
            return string((MemorySegment) DESCRIBE.invokeExact());
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @return the calling thread's last shim error, {@code ""} when the last call succeeded */
    public static String lastError()
    {
        try
        {
            return string((MemorySegment) LAST_ERROR.invokeExact());
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param callback    upcall stub of {@code void(int32_t severity, const char* message)}
     * @param minSeverity most verbose severity forwarded (0 internal error .. 4 verbose)
     * @return the logger handle, or {@link MemorySegment#NULL} on failure
     */
    public static MemorySegment loggerCreate(final MemorySegment callback, final int minSeverity)
    {
        try
        {
            return (MemorySegment) LOGGER_CREATE.invokeExact(callback, minSeverity);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @param logger a logger handle; no runtime created with it may remain */
    public static void loggerDestroy(final MemorySegment logger)
    {
        try
        {
            LOGGER_DESTROY.invokeExact(logger);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param logger a logger handle
     * @return the runtime handle, or {@link MemorySegment#NULL} on failure
     */
    public static MemorySegment runtimeCreate(final MemorySegment logger)
    {
        try
        {
            return (MemorySegment) RUNTIME_CREATE.invokeExact(logger);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @param runtime a runtime handle whose engines were all destroyed */
    public static void runtimeDestroy(final MemorySegment runtime)
    {
        try
        {
            RUNTIME_DESTROY.invokeExact(runtime);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param runtime a runtime handle
     * @param plan    the serialized engine (native memory)
     * @param size    its byte size
     * @return the engine handle, or {@link MemorySegment#NULL} on failure
     */
    public static MemorySegment engineDeserialize(final MemorySegment runtime, final MemorySegment plan,
        final long size)
    {
        try
        {
            return (MemorySegment) ENGINE_DESERIALIZE.invokeExact(runtime, plan, size);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @param engine an engine handle whose contexts were all destroyed */
    public static void engineDestroy(final MemorySegment engine)
    {
        try
        {
            ENGINE_DESTROY.invokeExact(engine);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param engine an engine handle
     * @return the number of I/O tensors, or {@code -1}
     */
    public static int engineNbIo(final MemorySegment engine)
    {
        try
        {
            return (int) ENGINE_NB_IO.invokeExact(engine);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param engine an engine handle
     * @param index  tensor index
     * @return the tensor's name as a C string owned by the engine, or {@link MemorySegment#NULL}
     */
    public static MemorySegment engineIoName(final MemorySegment engine, final int index)
    {
        try
        {
            return (MemorySegment) ENGINE_IO_NAME.invokeExact(engine, index);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param engine an engine handle
     * @param name   tensor name (C string)
     * @return {@code 1} input, {@code 2} output, {@code 0} not a tensor, {@code -1} failure
     */
    public static int engineIoMode(final MemorySegment engine, final MemorySegment name)
    {
        try
        {
            return (int) ENGINE_IO_MODE.invokeExact(engine, name);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param engine an engine handle
     * @param name   tensor name (C string)
     * @return TensorRT's {@code DataType} value, or {@code -1}
     */
    public static int engineDtype(final MemorySegment engine, final MemorySegment name)
    {
        try
        {
            return (int) ENGINE_DTYPE.invokeExact(engine, name);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param engine an engine handle
     * @param name   tensor name (C string)
     * @return TensorRT's {@code TensorFormat} value, or {@code -1}
     */
    public static int engineFormat(final MemorySegment engine, final MemorySegment name)
    {
        try
        {
            return (int) ENGINE_FORMAT.invokeExact(engine, name);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param engine an engine handle
     * @param name   tensor name (C string)
     * @return {@code 1} for a shape tensor, {@code 0} otherwise, {@code -1} on failure
     */
    public static int engineIsShapeIo(final MemorySegment engine, final MemorySegment name)
    {
        try
        {
            return (int) ENGINE_IS_SHAPE_IO.invokeExact(engine, name);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param engine an engine handle
     * @param name   tensor name (C string)
     * @param out    {@value #DIMS_BYTES} bytes receiving the dimensions
     * @return the rank, or {@code -1}
     */
    public static int engineShape(final MemorySegment engine, final MemorySegment name, final MemorySegment out)
    {
        try
        {
            return (int) ENGINE_SHAPE.invokeExact(engine, name, out);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param engine an engine handle
     * @return the number of optimization profiles, or {@code -1}
     */
    public static int engineNbProfiles(final MemorySegment engine)
    {
        try
        {
            return (int) ENGINE_NB_PROFILES.invokeExact(engine);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param engine   an engine handle
     * @param name     input tensor name (C string)
     * @param profile  profile index
     * @param selector {@code 0} MIN, {@code 1} OPT, {@code 2} MAX
     * @param out      {@value #DIMS_BYTES} bytes receiving the dimensions
     * @return the rank, or {@code -1}
     */
    public static int engineProfileShape(final MemorySegment engine, final MemorySegment name, final int profile,
        final int selector, final MemorySegment out)
    {
        try
        {
            return (int) ENGINE_PROFILE_SHAPE.invokeExact(engine, name, profile, selector, out);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param engine   an engine handle
     * @param strategy allocation strategy ({@code 0} static)
     * @return the context handle, or {@link MemorySegment#NULL}
     */
    public static MemorySegment contextCreate(final MemorySegment engine, final int strategy)
    {
        try
        {
            return (MemorySegment) CONTEXT_CREATE.invokeExact(engine, strategy);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @param context a context handle */
    public static void contextDestroy(final MemorySegment context)
    {
        try
        {
            CONTEXT_DESTROY.invokeExact(context);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param context a context handle
     * @param profile profile index
     * @param stream  a {@code cudaStream_t}
     * @return {@code 1} on success, {@code 0} on failure
     */
    public static int contextSetProfileAsync(final MemorySegment context, final int profile,
        final MemorySegment stream)
    {
        try
        {
            return (int) CONTEXT_SET_PROFILE_ASYNC.invokeExact(context, profile, stream);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param context a context handle
     * @param name    input tensor name (C string)
     * @param rank    number of dimensions
     * @param dims    {@code rank} {@code int64_t}s
     * @return {@code 1} on success, {@code 0} on failure
     */
    public static int contextSetInputShape(final MemorySegment context, final MemorySegment name, final int rank,
        final MemorySegment dims)
    {
        try
        {
            return (int) CONTEXT_SET_INPUT_SHAPE.invokeExact(context, name, rank, dims);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param context a context handle
     * @param name    tensor name (C string)
     * @param out     {@value #DIMS_BYTES} bytes receiving the dimensions
     * @return the rank, or {@code -1}
     */
    public static int contextTensorShape(final MemorySegment context, final MemorySegment name,
        final MemorySegment out)
    {
        try
        {
            return (int) CONTEXT_TENSOR_SHAPE.invokeExact(context, name, out);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param context a context handle
     * @param name    tensor name (C string)
     * @param address device (or, for the test double, host) memory of the tensor
     * @return {@code 1} on success, {@code 0} on failure
     */
    public static int contextSetTensorAddress(final MemorySegment context, final MemorySegment name,
        final MemorySegment address)
    {
        try
        {
            return (int) CONTEXT_SET_TENSOR_ADDRESS.invokeExact(context, name, address);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param context a context handle
     * @param stream  a {@code cudaStream_t}
     * @return {@code 1} on success, {@code 0} on failure
     */
    public static int contextEnqueueV3(final MemorySegment context, final MemorySegment stream)
    {
        try
        {
            return (int) CONTEXT_ENQUEUE_V3.invokeExact(context, stream);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param cString a NUL-terminated string returned by the shim, or {@link MemorySegment#NULL}
     * @return its text, or {@code null} for NULL
     */
    @SuppressWarnings("restricted") // reads NUL-terminated strings the shim returns
    static String string(final MemorySegment cString)
    {
        if (cString.equals(MemorySegment.NULL))
        {
            return null;
        }
        return cString.reinterpret(Integer.MAX_VALUE).getString(0);
    }

    private static RuntimeException rethrow(final Throwable thrown)
    {
        if (thrown instanceof RuntimeException unchecked)
        {
            throw unchecked;
        }
        if (thrown instanceof Error error)
        {
            throw error;
        }
        throw new IllegalStateException("a shim downcall threw a checked exception, which FFM never does", thrown);
    }

    /** The loaded library (or why there is none) and the handles made from it. */
    private static final class Binding
    {
        private static final MethodHandle RAISE;

        static
        {
            try
            {
                RAISE = MethodHandles.lookup().findStatic(Binding.class, "raise",
                    MethodType.methodType(void.class, String.class));
            }
            catch (final ReflectiveOperationException impossible)
            {
                throw new ExceptionInInitializerError(impossible);
            }
        }

        private final SymbolLookup symbols;
        private final String location;
        private final String failure;
        private final List<String> names = new ArrayList<>();
        private final List<String> missing = new ArrayList<>();

        private Binding(final SymbolLookup symbols, final String location, final String failure)
        {
            this.symbols = symbols;
            this.location = location;
            this.failure = failure;
        }

        @SuppressWarnings("restricted") // loading the shim library is this class's job
        static Binding load(final ShimLocation where)
        {
            final List<String> tried = new ArrayList<>();
            for (final Path file : where.candidates())
            {
                try
                {
                    return new Binding(SymbolLookup.libraryLookup(file, Arena.global()), file.toString(), null);
                }
                catch (final IllegalArgumentException | IllegalCallerException failure)
                {
                    tried.add(file + " (" + where.origin() + "): " + failure.getMessage());
                }
            }
            if (where.isExplicit())
            {
                if (tried.isEmpty())
                {
                    tried.add(where.explicitPath().orElseThrow() + " (" + where.origin() + "): not loadable");
                }
                return new Binding(null, null, "TensorRT shim library not loadable: " + String.join("; ", tried)
                    + ". Build it with trt/src/main/native/build.sh (needs TensorRT 10), or fix " + where.origin());
            }
            try
            {
                return new Binding(SymbolLookup.libraryLookup(ShimLocation.FILE_NAME, Arena.global()),
                    "dlopen(\"" + ShimLocation.FILE_NAME + "\")", null);
            }
            catch (final IllegalArgumentException | IllegalCallerException failure)
            {
                tried.add("dlopen(\"" + ShimLocation.FILE_NAME + "\"): " + failure.getMessage());
            }
            return new Binding(null, null, "TensorRT shim library " + ShimLocation.FILE_NAME + " not found ("
                + String.join("; ", tried) + "). It is built by trt/src/main/native/build.sh where TensorRT 10 is "
                + "installed; point -D" + ShimLocation.PATH_PROPERTY + " or " + ShimLocation.PATH_ENV
                + " at it, or put its folder on LD_LIBRARY_PATH");
        }

        @SuppressWarnings("restricted") // binding the shim's functions is this class's job
        MethodHandle downcall(final String name, final FunctionDescriptor descriptor)
        {
            names.add(name);
            final MethodType type = descriptor.toMethodType();
            if (failure != null)
            {
                return failing(type, failure);
            }
            final Optional<MemorySegment> address = symbols.find(name);
            if (address.isEmpty())
            {
                missing.add(name);
                return failing(type, "the TensorRT shim at " + location + " does not export " + name
                    + "; rebuild it from this version's ingot_trt_shim.cpp");
            }
            return LINKER.downcallHandle(address.get(), descriptor);
        }

        private static MethodHandle failing(final MethodType type, final String message)
        {
            // The void "raise" runs first and always throws; the empty target only gives the handle its exact type.
            return MethodHandles.foldArguments(MethodHandles.empty(type), RAISE.bindTo(message));
        }

        @SuppressWarnings("unused") // called through RAISE
        private static void raise(final String message)
        {
            throw new TrtException(message);
        }
    }
}
