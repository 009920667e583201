package io.ingot.fil;

import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;

import java.lang.foreign.MemorySegment;

/**
 * One instance of a FIL model. Per batch: the rows of {@code input__0} are handed to the library where the batch
 * holds them (the instance's staging memory, or a lone request's own memory), {@code output__0} is allocated once
 * from the batch and written once by the {@link OutputTransform}. Nothing is allocated per batch on the Java side.
 * Used by its instance's thread only.
 */
final class FilEngine implements Engine
{
    private final String modelName;
    private final ForestPredictor predictor;
    private final FilSignature signature;
    private final float threshold;
    private final long[] outputShape = new long[2];

    /**
     * @param modelName the model, for messages
     * @param predictor this instance's predictor
     * @param signature the checked configuration
     * @param threshold the binary decision threshold
     */
    FilEngine(final String modelName, final ForestPredictor predictor, final FilSignature signature,
        final float threshold)
    {
        this.modelName = modelName;
        this.predictor = predictor;
        this.signature = signature;
        this.threshold = threshold;
    }

    @Override
    public void execute(final Batch batch)
    {
        final BatchInput input = batch.input(FilSignature.INPUT);
        if (input == null)
        {
            throw new IllegalStateException("model '" + modelName + "': the batch carries no '" + FilSignature.INPUT
                + "'");
        }
        if (input.dataType() != signature.inputType())
        {
            throw new IllegalArgumentException("model '" + modelName + "': input '" + FilSignature.INPUT + "' is "
                + input.dataType() + ", the model is configured for " + signature.inputType());
        }
        final long features = input.dim(input.rank() - 1);
        if (features != signature.features())
        {
            throw new IllegalArgumentException("model '" + modelName + "': input '" + FilSignature.INPUT + "' has "
                + features + " features per row, the model takes " + signature.features());
        }
        if (!batch.isOutputRequested(FilSignature.OUTPUT))
        {
            return;
        }
        final long rows = input.dim(0);
        if (rows > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("model '" + modelName + "': " + rows + " rows in one batch are more"
                + " than the libraries take in one call (" + Integer.MAX_VALUE + ")");
        }
        outputShape[0] = rows;
        outputShape[1] = signature.outputs();
        final MemorySegment output = batch.allocateOutput(FilSignature.OUTPUT, outputShape);
        if (rows == 0)
        {
            return;
        }
        predictor.predict(input.data(), (int)rows, features);
        signature.transform().write(predictor, (int)rows, signature.width(), threshold, output);
    }

    /**
     * False: XGBoost and LightGBM predict on OpenMP, and OpenMP (libgomp) keeps a team of worker threads per thread
     * that starts a parallel region ({@code cpu_nthread}, by default every core), and XGBoost a prediction buffer per
     * calling thread: every caller thread that ran a batch would keep its own team and buffers alive. Batches stay on
     * the instance's thread.
     */
    @Override
    public boolean runsOnAnyThread()
    {
        return false;
    }

    @Override
    public void close()
    {
        predictor.close();
    }
}
