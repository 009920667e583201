package io.ingot.fil.xgboost;

import io.ingot.fil.bundled.BundledLibrary;
import io.ingot.fil.bundled.NativeBinding;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.ingot.fil.bundled.NativeBinding.rethrow;

/**
 * FFM binding of the part of XGBoost's C API ({@code include/xgboost/c_api.h}, XGBoost 3.4.0) that serving and
 * training a model needs, hand-written in jextract's shape: one holder class for the library, one
 * {@code static final MethodHandle} per function resolved once when this class initialises, methods named and typed
 * as the C functions ({@code int} return codes, pointers and handles as {@link MemorySegment}s). A non-zero return
 * means failure; {@link #XGBGetLastError()} then holds the message, per thread ("This function is thread safe").
 * {@link XgbBooster} turns codes into exceptions.
 *
 * <p>When the library cannot be loaded, this class still initialises: {@link #isAvailable()} is false,
 * {@link #unavailableReason()} says why, and every function throws
 * {@link io.ingot.fil.bundled.NativeLibraryUnavailableException} with that reason.
 *
 * <p>Thread-safety is XGBoost's: prediction on one booster from several threads is safe for tree boosters
 * ({@code gbtree}, {@code dart}; XGBoost's {@code doc/prediction.rst}, "Thread Safety"); anything that changes a
 * booster is not.
 */
public final class Xgboost
{
    /** The library: {@code libxgboost4j.so} inside {@code ml.dmlc:xgboost4j_2.12:3.4.0}. */
    public static final BundledLibrary LIBRARY = new BundledLibrary("XGBoost 3.4.0 (libxgboost4j.so)",
        "ml.dmlc:xgboost4j_2.12:3.4.0", "libxgboost4j.so",
        Map.of("amd64", "lib/linux/x86_64/libxgboost4j.so", "aarch64", "lib/linux/aarch64/libxgboost4j.so"),
        "ingot.fil.xgboost.library");

    /** {@code bst_ulong}: {@code uint64_t}. */
    public static final ValueLayout.OfLong BST_ULONG = ValueLayout.JAVA_LONG.withName("bst_ulong");
    /** {@code int}. */
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT.withName("int");
    /** Any pointer or handle ({@code BoosterHandle}, {@code DMatrixHandle}, {@code char const *}). */
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS.withName("void *");

    /** Prediction {@code "type"} 0 of {@code XGBoosterPredictFromDMatrix}'s config: normal (transformed) output. */
    public static final int PREDICT_NORMAL = 0;
    /** Prediction {@code "type"} 1: the untransformed margin. */
    public static final int PREDICT_MARGIN = 1;

    private static final NativeBinding BINDING = NativeBinding.load(LIBRARY);

    private static final MethodHandle XGBOOST_VERSION = BINDING.downcall("XGBoostVersion",
        FunctionDescriptor.ofVoid(C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle XGB_GET_LAST_ERROR = BINDING.downcall("XGBGetLastError",
        FunctionDescriptor.of(C_POINTER), Linker.Option.critical(false));
    private static final MethodHandle XGB_SET_GLOBAL_CONFIG = BINDING.downcall("XGBSetGlobalConfig",
        FunctionDescriptor.of(C_INT, C_POINTER));
    private static final MethodHandle XGDMATRIX_CREATE_FROM_DENSE = BINDING.downcall("XGDMatrixCreateFromDense",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle XGDMATRIX_SET_FLOAT_INFO = BINDING.downcall("XGDMatrixSetFloatInfo",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, BST_ULONG));
    private static final MethodHandle XGDMATRIX_FREE = BINDING.downcall("XGDMatrixFree",
        FunctionDescriptor.of(C_INT, C_POINTER));
    private static final MethodHandle XGBOOSTER_CREATE = BINDING.downcall("XGBoosterCreate",
        FunctionDescriptor.of(C_INT, C_POINTER, BST_ULONG, C_POINTER));
    private static final MethodHandle XGBOOSTER_FREE = BINDING.downcall("XGBoosterFree",
        FunctionDescriptor.of(C_INT, C_POINTER));
    private static final MethodHandle XGBOOSTER_SET_PARAM = BINDING.downcall("XGBoosterSetParam",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle XGBOOSTER_UPDATE_ONE_ITER = BINDING.downcall("XGBoosterUpdateOneIter",
        FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER));
    private static final MethodHandle XGBOOSTER_GET_NUM_FEATURE = BINDING.downcall("XGBoosterGetNumFeature",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
    private static final MethodHandle XGBOOSTER_BOOSTED_ROUNDS = BINDING.downcall("XGBoosterBoostedRounds",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
    private static final MethodHandle XGBOOSTER_LOAD_MODEL_FROM_BUFFER = BINDING.downcall(
        "XGBoosterLoadModelFromBuffer", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, BST_ULONG));
    private static final MethodHandle XGBOOSTER_SAVE_MODEL = BINDING.downcall("XGBoosterSaveModel",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
    private static final MethodHandle XGBOOSTER_SAVE_JSON_CONFIG = BINDING.downcall("XGBoosterSaveJsonConfig",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle XGBOOSTER_PREDICT_FROM_DENSE = BINDING.downcall("XGBoosterPredictFromDense",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER));

    /** Every C function this class binds, for the test that checks the library exports them all. */
    public static final List<String> BOUND_FUNCTIONS = BINDING.boundNames();

    private Xgboost()
    {
    }

    /** @return true when the library loaded and exports every bound function */
    public static boolean isAvailable()
    {
        return BINDING.isAvailable();
    }

    /** @return why the library cannot be used, or empty when it can */
    public static Optional<String> unavailableReason()
    {
        return BINDING.unavailableReason();
    }

    /** @throws io.ingot.fil.bundled.NativeLibraryUnavailableException when the library cannot be used */
    public static void requireAvailable()
    {
        BINDING.requireAvailable();
    }

    /** {@code void XGBoostVersion(int *major, int *minor, int *patch)}. */
    public static void XGBoostVersion(final MemorySegment major, final MemorySegment minor, final MemorySegment patch)
    {
        try
        {
            XGBOOST_VERSION.invokeExact(major, minor, patch);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code const char *XGBGetLastError()}: this thread's last error, a NUL-terminated string XGBoost owns. */
    public static MemorySegment XGBGetLastError()
    {
        try
        {
            return (MemorySegment)XGB_GET_LAST_ERROR.invokeExact();
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int XGBSetGlobalConfig(char const *config)}. */
    public static int XGBSetGlobalConfig(final MemorySegment config)
    {
        try
        {
            return (int)XGB_SET_GLOBAL_CONFIG.invokeExact(config);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int XGDMatrixCreateFromDense(char const *data, char const *config, DMatrixHandle *out)}. */
    public static int XGDMatrixCreateFromDense(final MemorySegment data, final MemorySegment config,
        final MemorySegment out)
    {
        try
        {
            return (int)XGDMATRIX_CREATE_FROM_DENSE.invokeExact(data, config, out);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code int XGDMatrixSetFloatInfo(DMatrixHandle handle, const char *field, const float *array, bst_ulong len)}.
     */
    public static int XGDMatrixSetFloatInfo(final MemorySegment handle, final MemorySegment field,
        final MemorySegment array, final long len)
    {
        try
        {
            return (int)XGDMATRIX_SET_FLOAT_INFO.invokeExact(handle, field, array, len);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int XGDMatrixFree(DMatrixHandle handle)}. */
    public static int XGDMatrixFree(final MemorySegment handle)
    {
        try
        {
            return (int)XGDMATRIX_FREE.invokeExact(handle);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int XGBoosterCreate(const DMatrixHandle dmats[], bst_ulong len, BoosterHandle *out)}. */
    public static int XGBoosterCreate(final MemorySegment dmats, final long len, final MemorySegment out)
    {
        try
        {
            return (int)XGBOOSTER_CREATE.invokeExact(dmats, len, out);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int XGBoosterFree(BoosterHandle handle)}. */
    public static int XGBoosterFree(final MemorySegment handle)
    {
        try
        {
            return (int)XGBOOSTER_FREE.invokeExact(handle);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int XGBoosterSetParam(BoosterHandle handle, const char *name, const char *value)}. */
    public static int XGBoosterSetParam(final MemorySegment handle, final MemorySegment name,
        final MemorySegment value)
    {
        try
        {
            return (int)XGBOOSTER_SET_PARAM.invokeExact(handle, name, value);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int XGBoosterUpdateOneIter(BoosterHandle handle, int iter, DMatrixHandle dtrain)}. */
    public static int XGBoosterUpdateOneIter(final MemorySegment handle, final int iter, final MemorySegment dtrain)
    {
        try
        {
            return (int)XGBOOSTER_UPDATE_ONE_ITER.invokeExact(handle, iter, dtrain);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int XGBoosterGetNumFeature(BoosterHandle handle, bst_ulong *out)}. */
    public static int XGBoosterGetNumFeature(final MemorySegment handle, final MemorySegment out)
    {
        try
        {
            return (int)XGBOOSTER_GET_NUM_FEATURE.invokeExact(handle, out);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int XGBoosterBoostedRounds(BoosterHandle handle, int *out)}. */
    public static int XGBoosterBoostedRounds(final MemorySegment handle, final MemorySegment out)
    {
        try
        {
            return (int)XGBOOSTER_BOOSTED_ROUNDS.invokeExact(handle, out);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int XGBoosterLoadModelFromBuffer(BoosterHandle handle, const void *buf, bst_ulong len)}. */
    public static int XGBoosterLoadModelFromBuffer(final MemorySegment handle, final MemorySegment buf,
        final long len)
    {
        try
        {
            return (int)XGBOOSTER_LOAD_MODEL_FROM_BUFFER.invokeExact(handle, buf, len);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int XGBoosterSaveModel(BoosterHandle handle, const char *fname)}: the format follows the extension. */
    public static int XGBoosterSaveModel(final MemorySegment handle, final MemorySegment fname)
    {
        try
        {
            return (int)XGBOOSTER_SAVE_MODEL.invokeExact(handle, fname);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int XGBoosterSaveJsonConfig(BoosterHandle handle, bst_ulong *out_len, char const **out_str)}. */
    public static int XGBoosterSaveJsonConfig(final MemorySegment handle, final MemorySegment outLen,
        final MemorySegment outStr)
    {
        try
        {
            return (int)XGBOOSTER_SAVE_JSON_CONFIG.invokeExact(handle, outLen, outStr);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code int XGBoosterPredictFromDense(BoosterHandle handle, char const *values, char const *config,
     * DMatrixHandle m, bst_ulong const **out_shape, bst_ulong *out_dim, const float **out_result)}: in-place
     * prediction over a dense matrix described by a JSON {@code __array_interface__}; the result stays XGBoost's
     * (per thread and booster) until this thread's next prediction with the booster.
     */
    public static int XGBoosterPredictFromDense(final MemorySegment handle, final MemorySegment values,
        final MemorySegment config, final MemorySegment m, final MemorySegment outShape, final MemorySegment outDim,
        final MemorySegment outResult)
    {
        try
        {
            return (int)XGBOOSTER_PREDICT_FROM_DENSE.invokeExact(handle, values, config, m, outShape, outDim,
                outResult);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }
}
