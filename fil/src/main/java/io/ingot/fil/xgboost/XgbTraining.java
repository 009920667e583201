package io.ingot.fil.xgboost;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;

import static io.ingot.fil.xgboost.XgboostException.check;

/**
 * Trains a small XGBoost model through the C API ({@code XGDMatrixCreateFromDense}, {@code XGDMatrixSetFloatInfo},
 * {@code XGBoosterCreate}, {@code XGBoosterSetParam}, {@code XGBoosterUpdateOneIter}): how this project makes its
 * test models and the example model, from data it chooses, without Python or a download. Stateless.
 */
public final class XgbTraining
{
    private XgbTraining()
    {
    }

    /**
     * @param features row-major {@code rows x cols} features
     * @param cols     features per row
     * @param labels   one label per row
     * @param params   XGBoost parameters, applied in iteration order ({@code objective}, {@code max_depth}, ...)
     * @param rounds   boosting rounds
     * @return the trained booster, which the caller closes
     * @throws XgboostException when XGBoost refuses the data or a parameter
     */
    public static XgbBooster train(final float[] features, final int cols, final float[] labels,
        final Map<String, String> params, final int rounds)
    {
        if (cols <= 0 || features.length != (long)labels.length * cols)
        {
            throw new IllegalArgumentException(features.length + " features do not make " + labels.length
                + " rows of " + cols);
        }
        Xgboost.requireAvailable();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment x = arena.allocateFrom(ValueLayout.JAVA_FLOAT, features);
            final MemorySegment y = arena.allocateFrom(ValueLayout.JAVA_FLOAT, labels);
            final MemorySegment out = arena.allocate(Xgboost.C_POINTER);
            final ArrayInterfaceText matrix = new ArrayInterfaceText(arena.allocate(ArrayInterfaceText.CAPACITY),
                "<f4");
            check(Xgboost.XGDMatrixCreateFromDense(matrix.describe(x.address(), labels.length, cols),
                arena.allocateFrom("{\"missing\":NaN,\"nthread\":1}"), out), "XGDMatrixCreateFromDense");
            final MemorySegment dtrain = out.get(Xgboost.C_POINTER, 0);
            try
            {
                check(Xgboost.XGDMatrixSetFloatInfo(dtrain, arena.allocateFrom("label"), y, labels.length),
                    "XGDMatrixSetFloatInfo(label)");
                final XgbBooster booster = XgbBooster.create(dtrain);
                try
                {
                    for (final Map.Entry<String, String> param : params.entrySet())
                    {
                        booster.setParam(param.getKey(), param.getValue());
                    }
                    for (int round = 0; round < rounds; round++)
                    {
                        check(Xgboost.XGBoosterUpdateOneIter(booster.handle(), round, dtrain),
                            "XGBoosterUpdateOneIter");
                    }
                    return booster;
                }
                catch (final RuntimeException ex)
                {
                    booster.close();
                    throw ex;
                }
            }
            finally
            {
                check(Xgboost.XGDMatrixFree(dtrain), "XGDMatrixFree");
            }
        }
    }
}
