package io.ingot.benchmarks.perf;

import io.ingot.api.TensorMetadata;

import java.util.List;

/**
 * What {@code ingot perf} sends requests to: a core in this process, or a server over HTTP or gRPC. A target is
 * opened for one model; it reports the model's shape, makes clients, and reads the server's counters.
 */
public interface LoadTarget extends AutoCloseable
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

    /** @return where requests go, for reports ({@code "HTTP 127.0.0.1:8000"}). */
    String describe();

    /**
     * @return the model's metadata and batching
     * @throws PerfException when the endpoint cannot be reached or does not serve the model (with the reason)
     */
    ModelInfo modelInfo();

    /**
     * Fixes the tensors every request carries; called once, before any client is made.
     *
     * @param inputs the resolved request tensors
     */
    void prepare(RequestInputs inputs);

    /**
     * @return a client with one request in flight at a time, ready to send the prepared tensors
     */
    LoadClient newClient();

    /**
     * @return the server's cumulative counters for the model, or {@code null} when the target has no statistics
     */
    ServerCounters counters();

    /** Releases the target (closes an in-process core, an HTTP client or a channel). */
    @Override
    void close();
}
