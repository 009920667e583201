package io.ingot.fil;

import io.ingot.fil.lightgbm.LgbmBooster;
import io.ingot.fil.lightgbm.LightgbmException;
import io.ingot.fil.lightgbm.Lightgbm;
import io.ingot.fil.lightgbm.MatPrediction;
import io.ingot.tensor.DataType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Set;

/**
 * A LightGBM text model served through LightGBM's C API, one booster per instance: LightGBM's single-row prediction
 * locks its booster exclusively ({@code Booster::PredictSingleRow} in {@code src/c_api.cpp}), so instances sharing one
 * would take turns. The booster opened at load (to check the model) goes to the first instance. LightGBM writes
 * {@code double}s; each instance has scratch memory for them, which the output transform reads once.
 */
final class LightgbmForest implements Forest
{
    private final String modelName;
    private final Path file;
    private final int cpuThreads;
    private final LgbmBooster first;
    private final long numFeatures;
    private final int classes;
    private final int scoresPerRow;
    private final int iterations;
    private boolean firstClaimed;

    private LightgbmForest(final String modelName, final Path file, final int cpuThreads, final LgbmBooster first)
    {
        this.modelName = modelName;
        this.file = file;
        this.cpuThreads = cpuThreads;
        this.first = first;
        this.numFeatures = first.numFeatures();
        this.classes = first.numClasses();
        this.scoresPerRow = first.outputsPerRow(Lightgbm.C_API_PREDICT_NORMAL);
        this.iterations = first.iterations();
    }

    /**
     * @param modelName  the model, for messages
     * @param file       the model file
     * @param cpuThreads {@code cpu_nthread}
     * @return the loaded model
     * @throws FilModelException when LightGBM cannot read the file
     */
    static LightgbmForest open(final String modelName, final Path file, final int cpuThreads)
        throws FilModelException
    {
        final LgbmBooster booster = load(modelName, file);
        try
        {
            return new LightgbmForest(modelName, file, cpuThreads, booster);
        }
        catch (final LightgbmException ex)
        {
            booster.close();
            throw new FilModelException(modelName + ": LightGBM cannot inspect '" + file + "': " + ex.getMessage(),
                ex);
        }
    }

    private static LgbmBooster load(final String modelName, final Path file) throws FilModelException
    {
        try
        {
            return LgbmBooster.load(file);
        }
        catch (final LightgbmException ex)
        {
            throw new FilModelException(modelName + ": LightGBM cannot read '" + file + "': " + ex.getMessage(), ex);
        }
    }

    @Override
    public String library()
    {
        return "LightGBM 3.2.1";
    }

    @Override
    public String describe()
    {
        return "LightGBM 3.2.1, " + iterations + " iterations, " + numFeatures + " features, " + classes + " class"
            + (classes == 1 ? "" : "es") + ", one booster per instance";
    }

    @Override
    public long numFeatures()
    {
        return numFeatures;
    }

    @Override
    public int scoresPerRow()
    {
        return scoresPerRow;
    }

    @Override
    public boolean scoresAreMargins()
    {
        return false;
    }

    @Override
    public Set<DataType> inputTypes()
    {
        return Set.of(DataType.FP32, DataType.FP64);
    }

    @Override
    public synchronized ForestPredictor predictor(final DataType inputType, final int maxRows)
        throws FilModelException
    {
        final LgbmBooster booster;
        if (!firstClaimed)
        {
            firstClaimed = true;
            booster = first;
        }
        else
        {
            booster = load(modelName, file);
        }
        try
        {
            return new Predictor(booster, new MatPrediction(booster, Lightgbm.C_API_PREDICT_NORMAL,
                inputType == DataType.FP64 ? Lightgbm.C_API_DTYPE_FLOAT64 : Lightgbm.C_API_DTYPE_FLOAT32,
                (int)numFeatures, cpuThreads), scoresPerRow, Math.max(1, maxRows));
        }
        catch (final LightgbmException ex)
        {
            booster.close();
            throw new FilModelException(modelName + ": LightGBM cannot prepare prediction: " + ex.getMessage(), ex);
        }
    }

    @Override
    public synchronized void close()
    {
        if (!firstClaimed)
        {
            first.close();
        }
    }

    /** One instance: its booster, its prediction call and its scratch for LightGBM's doubles. */
    private static final class Predictor implements ForestPredictor
    {
        private final LgbmBooster booster;
        private final MatPrediction prediction;
        private final int scoresPerRow;
        private final Arena arena = Arena.ofShared();
        private MemorySegment scores;

        Predictor(final LgbmBooster booster, final MatPrediction prediction, final int scoresPerRow,
            final int rows)
        {
            this.booster = booster;
            this.prediction = prediction;
            this.scoresPerRow = scoresPerRow;
            this.scores = arena.allocate(ValueLayout.JAVA_DOUBLE, (long)rows * scoresPerRow);
        }

        @Override
        public void predict(final MemorySegment rows, final int count, final long features)
        {
            final long needed = (long)count * scoresPerRow * Double.BYTES;
            if (scores.byteSize() < needed)
            {
                // Only a batch larger than any before it (a model without max_batch_size) allocates.
                scores = arena.allocate(needed, Double.BYTES);
            }
            prediction.predict(rows, count, scores);
        }

        @Override
        public double score(final long index)
        {
            return scores.getAtIndex(ValueLayout.JAVA_DOUBLE, index);
        }

        @Override
        public void copyScores(final MemorySegment target, final long count)
        {
            for (long i = 0; i < count; i++)
            {
                target.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float)scores.getAtIndex(
                    ValueLayout.JAVA_DOUBLE, i));
            }
        }

        @Override
        public void close()
        {
            try
            {
                prediction.close();
            }
            finally
            {
                booster.close();
                arena.close();
            }
        }
    }
}
