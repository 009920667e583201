package io.ingot.fil.xgboost;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

import static io.ingot.fil.xgboost.XgboostException.check;

/**
 * XGBoost's in-place prediction over a dense, row-major matrix ({@code XGBoosterPredictFromDense}) as one reusable
 * call: the matrix is described to XGBoost by address ({@link ArrayInterfaceText}), so XGBoost reads the caller's
 * memory where it lies, and the out-parameters live in memory of this object. {@link #predict} allocates nothing.
 *
 * <p>XGBoost writes the result into a buffer of its own, per thread and booster, valid until the same thread's next
 * prediction with that booster: read it ({@link #result}) before predicting again. Not thread-safe: one per thread;
 * several may share a booster.
 */
public final class DensePrediction implements AutoCloseable
{
    /** All memory: XGBoost's result and shape arrays are read at the addresses it returns, without a new segment. */
    @SuppressWarnings("restricted")
    private static final MemorySegment EVERYWHERE = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private final XgbBooster booster;
    private final Arena arena = Arena.ofShared();
    private final ArrayInterfaceText values;
    private final MemorySegment config;
    private final MemorySegment outShape;
    private final MemorySegment outDim;
    private final MemorySegment outResult;
    private long resultAddress;
    private long columns;

    /**
     * @param booster the model
     * @param type    {@link Xgboost#PREDICT_NORMAL} or {@link Xgboost#PREDICT_MARGIN}
     * @param typestr the input's element type in NumPy's notation ({@code <f4}, {@code <f8}, {@code <i4}, ...)
     */
    public DensePrediction(final XgbBooster booster, final int type, final String typestr)
    {
        this.booster = booster;
        this.values = new ArrayInterfaceText(arena.allocate(ArrayInterfaceText.CAPACITY), typestr);
        // strict_shape: the result is always (rows, outputs per row), binary and multi-class alike.
        this.config = arena.allocateFrom("{\"type\":" + type + ",\"training\":false,\"iteration_begin\":0,"
            + "\"iteration_end\":0,\"strict_shape\":true,\"missing\":NaN}", StandardCharsets.US_ASCII);
        this.outShape = arena.allocate(Xgboost.C_POINTER);
        this.outDim = arena.allocate(Xgboost.BST_ULONG);
        this.outResult = arena.allocate(Xgboost.C_POINTER);
    }

    /**
     * Predicts every row.
     *
     * @param data native memory holding {@code rows x cols} elements of the type given at construction, row-major
     * @param rows rows
     * @param cols features per row
     * @return outputs per row (the result holds {@code rows} times as many floats)
     * @throws XgboostException when XGBoost refuses (a column count other than the model's, ...)
     */
    public int predict(final MemorySegment data, final long rows, final long cols)
    {
        check(Xgboost.XGBoosterPredictFromDense(booster.handle(), values.describe(data.address(), rows, cols), config,
            MemorySegment.NULL, outShape, outDim, outResult), "XGBoosterPredictFromDense");
        final long dims = outDim.get(Xgboost.BST_ULONG, 0);
        final long shape = outShape.get(ValueLayout.JAVA_LONG, 0);
        // strict_shape gives (rows, outputs) for normal and margin prediction.
        columns = dims == 2 ? EVERYWHERE.get(ValueLayout.JAVA_LONG, shape + Long.BYTES) : 1;
        resultAddress = outResult.get(ValueLayout.JAVA_LONG, 0);
        return (int)columns;
    }

    /**
     * @param index element index into the last result, {@code row * outputs + output}
     * @return that float
     */
    public float result(final long index)
    {
        return EVERYWHERE.get(ValueLayout.JAVA_FLOAT_UNALIGNED, resultAddress + index * Float.BYTES);
    }

    /**
     * Copies the last result into {@code target} (rows times outputs floats).
     *
     * @param target      where to copy
     * @param targetIndex first float index in {@code target}
     * @param count       floats to copy
     */
    public void copyResult(final MemorySegment target, final long targetIndex, final long count)
    {
        MemorySegment.copy(EVERYWHERE, ValueLayout.JAVA_FLOAT_UNALIGNED, resultAddress, target,
            ValueLayout.JAVA_FLOAT_UNALIGNED,
            targetIndex * Float.BYTES, count);
    }

    /** @return outputs per row of the last result */
    public long columns()
    {
        return columns;
    }

    /** Frees this call's memory (not the booster). */
    @Override
    public void close()
    {
        arena.close();
    }
}
