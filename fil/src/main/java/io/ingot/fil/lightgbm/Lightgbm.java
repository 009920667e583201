package io.ingot.fil.lightgbm;

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
 * FFM binding of the part of LightGBM's C API ({@code include/LightGBM/c_api.h}, LightGBM 3.2.1, the version
 * {@code com.microsoft.ml.lightgbm:lightgbmlib:3.2.110} was built from) that serving and training a model needs,
 * hand-written in jextract's shape: one holder class for the library, one {@code static final MethodHandle} per
 * function resolved once when this class initialises, methods named and typed as the C functions ({@code int} return
 * codes: 0 success, -1 failure with the message in {@link #LGBM_GetLastError()}), pointers and handles as
 * {@link MemorySegment}s, the header's {@code #define}s as constants of the same names. {@link LgbmBooster} turns
 * codes into exceptions.
 *
 * <p>When the library cannot be loaded, this class still initialises: {@link #isAvailable()} is false,
 * {@link #unavailableReason()} says why, and every function throws
 * {@link io.ingot.fil.bundled.NativeLibraryUnavailableException} with that reason.
 *
 * <p>Thread-safety is LightGBM's ({@code src/c_api.cpp}): a booster's batch prediction takes its lock shared, so
 * several threads may predict at once; single-row fast prediction takes it exclusively.
 */
public final class Lightgbm
{
    /** The library: {@code lib_lightgbm.so} inside {@code com.microsoft.ml.lightgbm:lightgbmlib:3.2.110}. */
    public static final BundledLibrary LIBRARY = new BundledLibrary("LightGBM 3.2.1 (lib_lightgbm.so)",
        "com.microsoft.ml.lightgbm:lightgbmlib:3.2.110", "lib_lightgbm.so",
        Map.of("amd64", "com/microsoft/ml/lightgbm/linux/x86_64/lib_lightgbm.so"), "ingot.fil.lightgbm.library");

    /** {@code int} (also {@code int32_t}). */
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT.withName("int");
    /** {@code int64_t}. */
    public static final ValueLayout.OfLong C_INT64 = ValueLayout.JAVA_LONG.withName("int64_t");
    /** {@code double}. */
    public static final ValueLayout.OfDouble C_DOUBLE = ValueLayout.JAVA_DOUBLE.withName("double");
    /** Any pointer or handle ({@code BoosterHandle}, {@code DatasetHandle}, {@code FastConfigHandle}). */
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS.withName("void *");

    /** float32 (single precision float). */
    public static final int C_API_DTYPE_FLOAT32 = 0;
    /** float64 (double precision float). */
    public static final int C_API_DTYPE_FLOAT64 = 1;
    /** int32. */
    public static final int C_API_DTYPE_INT32 = 2;
    /** int64. */
    public static final int C_API_DTYPE_INT64 = 3;
    /** Normal prediction, with transform (if needed). */
    public static final int C_API_PREDICT_NORMAL = 0;
    /** Predict raw score. */
    public static final int C_API_PREDICT_RAW_SCORE = 1;
    /** Predict leaf index. */
    public static final int C_API_PREDICT_LEAF_INDEX = 2;
    /** Predict feature contributions (SHAP values). */
    public static final int C_API_PREDICT_CONTRIB = 3;

    private static final NativeBinding BINDING = NativeBinding.load(LIBRARY);

    private static final MethodHandle LGBM_GETLASTERROR = BINDING.downcall("LGBM_GetLastError",
        FunctionDescriptor.of(C_POINTER), Linker.Option.critical(false));
    private static final MethodHandle LGBM_DATASETCREATEFROMMAT = BINDING.downcall("LGBM_DatasetCreateFromMat",
        FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle LGBM_DATASETSETFIELD = BINDING.downcall("LGBM_DatasetSetField",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_INT, C_INT));
    private static final MethodHandle LGBM_DATASETFREE = BINDING.downcall("LGBM_DatasetFree",
        FunctionDescriptor.of(C_INT, C_POINTER));
    private static final MethodHandle LGBM_BOOSTERCREATE = BINDING.downcall("LGBM_BoosterCreate",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle LGBM_BOOSTERUPDATEONEITER = BINDING.downcall("LGBM_BoosterUpdateOneIter",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
    private static final MethodHandle LGBM_BOOSTERCREATEFROMMODELFILE =
        BINDING.downcall("LGBM_BoosterCreateFromModelfile",
            FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle LGBM_BOOSTERLOADMODELFROMSTRING =
        BINDING.downcall("LGBM_BoosterLoadModelFromString",
            FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle LGBM_BOOSTERFREE = BINDING.downcall("LGBM_BoosterFree",
        FunctionDescriptor.of(C_INT, C_POINTER));
    private static final MethodHandle LGBM_BOOSTERGETNUMCLASSES = BINDING.downcall("LGBM_BoosterGetNumClasses",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
    private static final MethodHandle LGBM_BOOSTERGETNUMFEATURE = BINDING.downcall("LGBM_BoosterGetNumFeature",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
    private static final MethodHandle LGBM_BOOSTERCALCNUMPREDICT = BINDING.downcall("LGBM_BoosterCalcNumPredict",
        FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_POINTER));
    private static final MethodHandle LGBM_BOOSTERPREDICTFORMAT = BINDING.downcall("LGBM_BoosterPredictForMat",
        FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_INT, C_INT, C_INT,
            C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle LGBM_BOOSTERPREDICTFORMATSINGLEROWFASTINIT =
        BINDING.downcall("LGBM_BoosterPredictForMatSingleRowFastInit",
            FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER));
    private static final MethodHandle LGBM_BOOSTERPREDICTFORMATSINGLEROWFAST =
        BINDING.downcall("LGBM_BoosterPredictForMatSingleRowFast",
            FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle LGBM_FASTCONFIGFREE = BINDING.downcall("LGBM_FastConfigFree",
        FunctionDescriptor.of(C_INT, C_POINTER));
    private static final MethodHandle LGBM_BOOSTERSAVEMODEL = BINDING.downcall("LGBM_BoosterSaveModel",
        FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT, C_INT, C_POINTER));

    /** Every C function this class binds, for the test that checks the library exports them all. */
    public static final List<String> BOUND_FUNCTIONS = BINDING.boundNames();

    private Lightgbm()
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

    /** {@code const char* LGBM_GetLastError()}: this thread's last error, a NUL-terminated string LightGBM owns. */
    public static MemorySegment LGBM_GetLastError()
    {
        try
        {
            return (MemorySegment)LGBM_GETLASTERROR.invokeExact();
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code int LGBM_DatasetCreateFromMat(const void* data, int data_type, int32_t nrow, int32_t ncol,
     * int is_row_major, const char* parameters, const DatasetHandle reference, DatasetHandle* out)}.
     */
    public static int LGBM_DatasetCreateFromMat(final MemorySegment data, final int dataType, final int nrow,
        final int ncol, final int isRowMajor, final MemorySegment parameters, final MemorySegment reference,
        final MemorySegment out)
    {
        try
        {
            return (int)LGBM_DATASETCREATEFROMMAT.invokeExact(data, dataType, nrow, ncol, isRowMajor, parameters,
                reference, out);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code int LGBM_DatasetSetField(DatasetHandle handle, const char* field_name, const void* field_data,
     * int num_element, int type)}.
     */
    public static int LGBM_DatasetSetField(final MemorySegment handle, final MemorySegment fieldName,
        final MemorySegment fieldData, final int numElement, final int type)
    {
        try
        {
            return (int)LGBM_DATASETSETFIELD.invokeExact(handle, fieldName, fieldData, numElement, type);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int LGBM_DatasetFree(DatasetHandle handle)}. */
    public static int LGBM_DatasetFree(final MemorySegment handle)
    {
        try
        {
            return (int)LGBM_DATASETFREE.invokeExact(handle);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int LGBM_BoosterCreate(const DatasetHandle train_data, const char* parameters, BoosterHandle* out)}. */
    public static int LGBM_BoosterCreate(final MemorySegment trainData, final MemorySegment parameters,
        final MemorySegment out)
    {
        try
        {
            return (int)LGBM_BOOSTERCREATE.invokeExact(trainData, parameters, out);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int LGBM_BoosterUpdateOneIter(BoosterHandle handle, int* is_finished)}. */
    public static int LGBM_BoosterUpdateOneIter(final MemorySegment handle, final MemorySegment isFinished)
    {
        try
        {
            return (int)LGBM_BOOSTERUPDATEONEITER.invokeExact(handle, isFinished);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code int LGBM_BoosterCreateFromModelfile(const char* filename, int* out_num_iterations, BoosterHandle* out)}.
     */
    public static int LGBM_BoosterCreateFromModelfile(final MemorySegment filename,
        final MemorySegment outNumIterations, final MemorySegment out)
    {
        try
        {
            return (int)LGBM_BOOSTERCREATEFROMMODELFILE.invokeExact(filename, outNumIterations, out);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code int LGBM_BoosterLoadModelFromString(const char* model_str, int* out_num_iterations, BoosterHandle* out)}.
     */
    public static int LGBM_BoosterLoadModelFromString(final MemorySegment modelStr,
        final MemorySegment outNumIterations, final MemorySegment out)
    {
        try
        {
            return (int)LGBM_BOOSTERLOADMODELFROMSTRING.invokeExact(modelStr, outNumIterations, out);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int LGBM_BoosterFree(BoosterHandle handle)}. */
    public static int LGBM_BoosterFree(final MemorySegment handle)
    {
        try
        {
            return (int)LGBM_BOOSTERFREE.invokeExact(handle);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int LGBM_BoosterGetNumClasses(BoosterHandle handle, int* out_len)}. */
    public static int LGBM_BoosterGetNumClasses(final MemorySegment handle, final MemorySegment outLen)
    {
        try
        {
            return (int)LGBM_BOOSTERGETNUMCLASSES.invokeExact(handle, outLen);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int LGBM_BoosterGetNumFeature(BoosterHandle handle, int* out_len)}. */
    public static int LGBM_BoosterGetNumFeature(final MemorySegment handle, final MemorySegment outLen)
    {
        try
        {
            return (int)LGBM_BOOSTERGETNUMFEATURE.invokeExact(handle, outLen);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code int LGBM_BoosterCalcNumPredict(BoosterHandle handle, int num_row, int predict_type,
     * int start_iteration, int num_iteration, int64_t* out_len)}.
     */
    public static int LGBM_BoosterCalcNumPredict(final MemorySegment handle, final int numRow, final int predictType,
        final int startIteration, final int numIteration, final MemorySegment outLen)
    {
        try
        {
            return (int)LGBM_BOOSTERCALCNUMPREDICT.invokeExact(handle, numRow, predictType, startIteration,
                numIteration, outLen);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code int LGBM_BoosterPredictForMat(BoosterHandle handle, const void* data, int data_type, int32_t nrow,
     * int32_t ncol, int is_row_major, int predict_type, int start_iteration, int num_iteration,
     * const char* parameter, int64_t* out_len, double* out_result)}.
     */
    public static int LGBM_BoosterPredictForMat(final MemorySegment handle, final MemorySegment data,
        final int dataType, final int nrow, final int ncol, final int isRowMajor, final int predictType,
        final int startIteration, final int numIteration, final MemorySegment parameter, final MemorySegment outLen,
        final MemorySegment outResult)
    {
        try
        {
            return (int)LGBM_BOOSTERPREDICTFORMAT.invokeExact(handle, data, dataType, nrow, ncol, isRowMajor,
                predictType, startIteration, numIteration, parameter, outLen, outResult);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code int LGBM_BoosterPredictForMatSingleRowFastInit(BoosterHandle handle, const int predict_type,
     * const int start_iteration, const int num_iteration, const int data_type, const int32_t ncol,
     * const char* parameter, FastConfigHandle* out_fastConfig)}.
     */
    public static int LGBM_BoosterPredictForMatSingleRowFastInit(final MemorySegment handle, final int predictType,
        final int startIteration, final int numIteration, final int dataType, final int ncol,
        final MemorySegment parameter, final MemorySegment outFastConfig)
    {
        try
        {
            return (int)LGBM_BOOSTERPREDICTFORMATSINGLEROWFASTINIT.invokeExact(handle, predictType, startIteration,
                numIteration, dataType, ncol, parameter, outFastConfig);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code int LGBM_BoosterPredictForMatSingleRowFast(FastConfigHandle fastConfig_handle, const void* data,
     * int64_t* out_len, double* out_result)}.
     */
    public static int LGBM_BoosterPredictForMatSingleRowFast(final MemorySegment fastConfigHandle,
        final MemorySegment data, final MemorySegment outLen, final MemorySegment outResult)
    {
        try
        {
            return (int)LGBM_BOOSTERPREDICTFORMATSINGLEROWFAST.invokeExact(fastConfigHandle, data, outLen, outResult);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** {@code int LGBM_FastConfigFree(FastConfigHandle fastConfig)}. */
    public static int LGBM_FastConfigFree(final MemorySegment fastConfig)
    {
        try
        {
            return (int)LGBM_FASTCONFIGFREE.invokeExact(fastConfig);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code int LGBM_BoosterSaveModel(BoosterHandle handle, int start_iteration, int num_iteration,
     * int feature_importance_type, const char* filename)}.
     */
    public static int LGBM_BoosterSaveModel(final MemorySegment handle, final int startIteration,
        final int numIteration, final int featureImportanceType, final MemorySegment filename)
    {
        try
        {
            return (int)LGBM_BOOSTERSAVEMODEL.invokeExact(handle, startIteration, numIteration,
                featureImportanceType, filename);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }
}
