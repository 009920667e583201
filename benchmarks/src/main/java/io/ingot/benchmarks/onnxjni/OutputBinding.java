package io.ingot.benchmarks.onnxjni;

import io.ingot.tensor.DataType;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.config.proto.ModelOutput;

import java.util.Map;

/**
 * How one configured output is produced: its shape is worked out before the run whenever possible, so that its
 * memory can be allocated from the batch and handed to ONNX Runtime as a pinned output (written in place). A
 * dimension is known before the run when the configuration or the model fixes it, when it is the batch dimension,
 * or when the model names it with the same symbol as a dimension of an input (ONNX symbolic dimensions: equal names,
 * equal sizes; e.g. MiniLM's {@code sequence_length}). Otherwise the output is {@linkplain #plannedShape left to the
 * run} and copied out afterwards.
 */
final class OutputBinding
{
    /**
     * Where a symbolic output dimension takes its size from.
     *
     * @param input an input name
     * @param axis  the input's dimension with the same symbol
     */
    record SymbolSource(String input, int axis)
    {
    }

    private static final long[] SCALAR = new long[0];

    private final String name;
    private final DataType dataType;
    private final long[] configDims;
    private final long[] reshape;
    private final boolean scalar;
    private final boolean batching;
    private final long[] modelDims;
    private final SymbolSource[] symbolSources;
    private boolean trustSymbols = true;
    private boolean lastPlanUsedSymbols;

    /**
     * @param output   the configured output
     * @param model    the model's declaration of it
     * @param batching whether the model batches
     * @param symbols  every named input dimension: symbol to source
     */
    OutputBinding(final ModelOutput output, final TensorSignature model, final boolean batching,
        final Map<String, SymbolSource> symbols)
    {
        this.name = output.getName();
        this.dataType = DataType.fromConfigNumber(output.getDataType().getNumber());
        this.configDims = Shapes.array(output.getDimsList());
        this.reshape = output.hasReshape() ? Shapes.array(output.getReshape().getShapeList()) : null;
        this.scalar = model.rank() == 0;
        this.batching = batching;
        this.modelDims = model.dims();
        this.symbolSources = new SymbolSource[modelDims.length];
        for (int axis = 0; axis < modelDims.length; axis++)
        {
            final String symbol = model.dimNames()[axis];
            if (!symbol.isEmpty())
            {
                symbolSources[axis] = symbols.get(symbol);
            }
        }
    }

    /** @return the output's name. */
    String name()
    {
        return name;
    }

    /** @return its element type. */
    DataType dataType()
    {
        return dataType;
    }

    /**
     * Works out the output's shape before the run.
     *
     * @param batch the batch about to run
     * @return the shape to allocate (the configured shape, with the batch dimension when batching), or {@code null}
     *         when only the run can tell
     */
    long[] plannedShape(final Batch batch)
    {
        lastPlanUsedSymbols = false;
        final int offset = batching ? 1 : 0;
        final long[] shape = new long[configDims.length + offset];
        if (batching)
        {
            shape[0] = batch.batchSize();
        }
        for (int i = 0; i < configDims.length; i++)
        {
            final int axis = i + offset;
            if (configDims[i] >= 0)
            {
                shape[axis] = configDims[i];
                continue;
            }
            if (reshape != null || axis >= modelDims.length)
            {
                return null;
            }
            if (modelDims[axis] >= 0)
            {
                shape[axis] = modelDims[axis];
                continue;
            }
            final SymbolSource source = symbolSources[axis];
            final BatchInput input = source == null || !trustSymbols ? null : batch.input(source.input());
            if (input == null || source.axis() >= input.rank())
            {
                return null;
            }
            shape[axis] = input.dim(source.axis());
            lastPlanUsedSymbols = true;
        }
        return shape;
    }

    /** @return true when the last {@link #plannedShape} relied on a symbolic dimension of an input. */
    boolean lastPlanUsedSymbols()
    {
        return lastPlanUsedSymbols;
    }

    /**
     * Stops predicting this output's shape from input symbols: the model produced a shape its symbolic dimensions
     * did not promise, so from now on it runs unpinned and is copied.
     */
    void distrustSymbols()
    {
        trustSymbols = false;
    }

    /**
     * @param configShape the configured shape with the batch dimension
     * @return the shape ONNX Runtime produces for it
     */
    long[] onnxShape(final long[] configShape)
    {
        if (reshape != null)
        {
            final long[] pattern = new long[reshape.length + (batching ? 1 : 0)];
            if (batching)
            {
                pattern[0] = configShape[0];
            }
            System.arraycopy(reshape, 0, pattern, batching ? 1 : 0, reshape.length);
            return Shapes.fill(pattern, Shapes.elementCount(configShape));
        }
        return scalar ? SCALAR : configShape;
    }

    /**
     * @param onnxShape the shape ONNX Runtime produced
     * @return the configured shape with the batch dimension, which the response carries
     */
    long[] configShape(final long[] onnxShape)
    {
        if (reshape == null && !scalar)
        {
            return onnxShape;
        }
        final long[] pattern = Shapes.withBatch(java.util.Arrays.stream(configDims).boxed().toList(),
            batching ? onnxShape[0] : -1);
        return Shapes.fill(pattern, Shapes.elementCount(onnxShape));
    }
}
