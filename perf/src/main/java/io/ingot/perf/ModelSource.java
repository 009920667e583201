package io.ingot.perf;

import io.ingot.api.TensorMetadata;

import java.util.List;

/**
 * What {@code ingot perf} needs to know about a model besides sending it requests: its metadata, and the server's
 * counters for it. Every {@link LoadTarget} is one; a target whose protocol cannot tell (shared-memory IPC has no
 * metadata or statistics request) borrows another's.
 */
public interface ModelSource
{
    /**
     * The model as its metadata and configuration report it.
     *
     * @param maxBatchSize the model's {@code max_batch_size}
     * @param inputs       inputs, with a leading {@code -1} when the model batches
     * @param outputs      output names
     */
    record ModelInfo(int maxBatchSize, List<TensorMetadata> inputs, List<String> outputs)
    {
        /** Freezes the lists. */
        public ModelInfo
        {
            inputs = List.copyOf(inputs);
            outputs = List.copyOf(outputs);
        }
    }

    /**
     * @return the model's metadata and batching
     * @throws PerfException when the endpoint cannot be reached or does not serve the model (with the reason)
     */
    ModelInfo modelInfo();

    /**
     * @return the server's cumulative counters for the model, or {@code null} when there are no statistics
     */
    ServerCounters counters();
}
