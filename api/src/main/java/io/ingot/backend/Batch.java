package io.ingot.backend;

import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.MemorySegment;

/**
 * A batch as an engine sees it: assembled inputs and a way to obtain output memory. Valid only during
 * {@link Engine#execute}.
 *
 * <p>When the model batches ({@code max_batch_size > 0}) every input and output has a leading batch dimension equal
 * to {@link #batchSize()}. Otherwise the batch holds exactly one request and shapes are the request's.
 */
public interface Batch
{
    /** @return the model configuration. */
    ModelConfig config();

    /** @return the total batch size: the sum of the requests' batch sizes ({@code max(1, bs)} each). */
    int batchSize();

    /** @return the number of requests in the batch. */
    int requestCount();

    /** @return the number of inputs present in the batch. */
    int inputCount();

    /**
     * @param index input index, {@code 0 <= index < inputCount()}
     * @return the input
     */
    BatchInput input(int index);

    /**
     * @param name input name
     * @return the input, or {@code null} when the batch does not carry it (an optional input)
     */
    BatchInput input(String name);

    /**
     * @param name output name
     * @return true when some request of the batch asked for this output
     */
    boolean isOutputRequested(String name);

    /**
     * Returns memory for an output of the given shape, into which the engine writes the output row-major. For a
     * batch of one request this is the response's own memory (no copy later); otherwise staging that the runtime
     * scatters into each response once.
     *
     * @param name  an output name of the model configuration
     * @param shape the output's shape, with the batch dimension when the model batches
     * @return memory of exactly the output's byte size
     * @throws IllegalArgumentException for an unknown output or a shape that disagrees with the batch
     */
    MemorySegment allocateOutput(String name, long[] shape);

    /**
     * Returns memory for an output whose byte size the shape does not determine: {@code BYTES} outputs, whose
     * elements are 4-byte little-endian lengths followed by their bytes.
     *
     * @param name     an output name of the model configuration
     * @param shape    the output's shape, with the batch dimension when the model batches
     * @param byteSize the output's total byte size
     * @return memory of exactly {@code byteSize} bytes
     * @throws IllegalArgumentException for an unknown output or a shape that disagrees with the batch
     */
    MemorySegment allocateOutput(String name, long[] shape, long byteSize);
}
