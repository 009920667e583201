package io.ingot.fil.xgboost;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.ingot.fil.xgboost.XgboostException.check;

/**
 * One XGBoost booster ({@code BoosterHandle}), freed exactly once by {@link #close()}. Loading, queries and
 * parameters are not thread-safe against each other or against prediction; prediction itself
 * ({@link DensePrediction}, one per thread) is safe from several threads on a tree booster (XGBoost's
 * {@code doc/prediction.rst}, "Thread Safety").
 */
public final class XgbBooster implements AutoCloseable
{
    private final MemorySegment handle;
    private final AtomicBoolean closed = new AtomicBoolean();

    private XgbBooster(final MemorySegment handle)
    {
        this.handle = handle;
    }

    /**
     * Creates a booster with cached training matrices (none for a booster that only loads and predicts).
     *
     * @param dmats {@code DMatrixHandle}s, or {@code null}
     * @return the booster
     * @throws XgboostException when XGBoost refuses
     */
    static XgbBooster create(final MemorySegment... dmats)
    {
        Xgboost.requireAvailable();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment array = dmats.length == 0 ? MemorySegment.NULL
                : arena.allocate(Xgboost.C_POINTER, dmats.length);
            for (int i = 0; i < dmats.length; i++)
            {
                array.setAtIndex(Xgboost.C_POINTER, i, dmats[i]);
            }
            final MemorySegment out = arena.allocate(Xgboost.C_POINTER);
            check(Xgboost.XGBoosterCreate(array, dmats.length, out), "XGBoosterCreate");
            return new XgbBooster(out.get(Xgboost.C_POINTER, 0));
        }
    }

    /**
     * Loads a model saved by XGBoost as JSON or UBJSON (XGBoost tells them apart by their bytes).
     *
     * @param model the model file's bytes
     * @return the booster
     * @throws XgboostException when XGBoost cannot read the model (XGBoost's message)
     * @throws io.ingot.fil.bundled.NativeLibraryUnavailableException when the library cannot be loaded
     */
    public static XgbBooster load(final byte[] model)
    {
        final XgbBooster booster = create();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment buffer = arena.allocate(Math.max(1, model.length));
            MemorySegment.copy(model, 0, buffer, ValueLayout.JAVA_BYTE, 0, model.length);
            check(Xgboost.XGBoosterLoadModelFromBuffer(booster.handle, buffer, model.length),
                "XGBoosterLoadModelFromBuffer");
            return booster;
        }
        catch (final RuntimeException ex)
        {
            booster.close();
            throw ex;
        }
    }

    /** @return the handle, for {@link DensePrediction} and training */
    MemorySegment handle()
    {
        requireOpen();
        return handle;
    }

    /** @return the number of features the model was trained on ({@code XGBoosterGetNumFeature}) */
    public long numFeatures()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(Xgboost.BST_ULONG);
            check(Xgboost.XGBoosterGetNumFeature(handle(), out), "XGBoosterGetNumFeature");
            return out.get(Xgboost.BST_ULONG, 0);
        }
    }

    /** @return the number of boosting rounds in the model ({@code XGBoosterBoostedRounds}) */
    public int boostedRounds()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(Xgboost.C_INT);
            check(Xgboost.XGBoosterBoostedRounds(handle(), out), "XGBoosterBoostedRounds");
            return out.get(Xgboost.C_INT, 0);
        }
    }

    /**
     * @return XGBoost's internal configuration as JSON ({@code XGBoosterSaveJsonConfig}): objective, booster kind,
     *         {@code learner_model_param} ({@code num_class}, {@code num_target}, {@code num_feature})
     */
    @SuppressWarnings("restricted") // XGBoost returns the text's address and length
    public String jsonConfig()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment length = arena.allocate(Xgboost.BST_ULONG);
            final MemorySegment text = arena.allocate(Xgboost.C_POINTER);
            check(Xgboost.XGBoosterSaveJsonConfig(handle(), length, text), "XGBoosterSaveJsonConfig");
            final long bytes = length.get(Xgboost.BST_ULONG, 0);
            return new String(text.get(Xgboost.C_POINTER, 0).reinterpret(bytes).toArray(ValueLayout.JAVA_BYTE),
                java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /**
     * @param name  an XGBoost parameter ({@code nthread}, {@code objective}, ...)
     * @param value its value
     * @throws XgboostException when XGBoost refuses it
     */
    public void setParam(final String name, final String value)
    {
        try (Arena arena = Arena.ofConfined())
        {
            check(Xgboost.XGBoosterSetParam(handle(), arena.allocateFrom(name), arena.allocateFrom(value)),
                "XGBoosterSetParam(" + name + ")");
        }
    }

    /**
     * Saves the model; the format follows the extension ({@code .json} JSON, {@code .ubj} UBJSON).
     *
     * @param file where to write
     */
    public void save(final Path file)
    {
        try (Arena arena = Arena.ofConfined())
        {
            check(Xgboost.XGBoosterSaveModel(handle(), arena.allocateFrom(file.toAbsolutePath().toString())),
                "XGBoosterSaveModel");
        }
    }

    private void requireOpen()
    {
        if (closed.get())
        {
            throw new IllegalStateException("the XGBoost booster was closed");
        }
    }

    /** Frees the booster; later calls are ignored. */
    @Override
    public void close()
    {
        if (closed.compareAndSet(false, true))
        {
            check(Xgboost.XGBoosterFree(handle), "XGBoosterFree");
        }
    }
}
