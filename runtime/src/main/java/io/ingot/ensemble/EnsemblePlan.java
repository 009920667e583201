package io.ingot.ensemble;

import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;

import java.util.List;

/**
 * An ensemble's data flow, resolved once when it loads: its tensors by index, which ensemble input and output each
 * configured input and output is, and per step the composing model, its configuration and which tensors it reads
 * and writes. Every request runs over the same plan. Immutable.
 *
 * @param name            the ensemble's name
 * @param config          the ensemble's configuration
 * @param tensorNames     every ensemble tensor, by index
 * @param inputTensors    per configured ensemble input, its tensor
 * @param outputTensors   per configured ensemble output, its tensor
 * @param outputDims      per configured ensemble output, its configured dims (without the batch dimension)
 * @param steps           the steps, in configuration order
 * @param consumers       per tensor, the steps that read it (each once)
 */
public record EnsemblePlan(String name, ModelConfig config, String[] tensorNames, int[] inputTensors,
    int[] outputTensors, List<List<Long>> outputDims, Step[] steps, int[][] consumers)
{
    /**
     * One step.
     *
     * @param index         its position in {@code ensemble_scheduling.step}
     * @param model         the composing model
     * @param version       the version it asks for, or -1 for the latest
     * @param config        the composing model's configuration, as loaded
     * @param inputNames    the composing model's inputs it fills
     * @param inputTensors  per input, the ensemble tensor it reads
     * @param inputDims     per input, the composing model's configured dims (without the batch dimension)
     * @param outputNames   the composing model's outputs it asks for
     * @param outputTensors per output, the ensemble tensor it writes
     * @param distinctReads how many distinct tensors it reads: it runs when that many are ready
     */
    public record Step(int index, String model, long version, ModelConfig config, String[] inputNames,
        int[] inputTensors, List<List<Long>> inputDims, String[] outputNames, int[] outputTensors, int distinctReads)
    {
        /** @return whether the composing model batches ({@code max_batch_size > 0}) */
        public boolean batching()
        {
            return config.getMaxBatchSize() > 0;
        }
    }

    /** @return whether the ensemble itself batches */
    public boolean batching()
    {
        return config.getMaxBatchSize() > 0;
    }

    /**
     * @param output a configured output's index
     * @return its datatype
     */
    public DataType outputType(final int output)
    {
        return DataType.fromConfigNumber(config.getOutput(output).getDataTypeValue());
    }
}
