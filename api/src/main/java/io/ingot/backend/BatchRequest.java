package io.ingot.backend;

/**
 * What one request of a batch carries besides its inputs, as Triton's backend API hands it to a backend
 * ({@code TRITONBACKEND_RequestId}, {@code RequestParameter}, {@code RequestCorrelationId}, {@code RequestFlags},
 * {@code InferenceRequestTimeoutMicroseconds}, {@code RequestOutputName}, {@code RequestIsCancelled}): a Python model
 * reads them as {@code request.request_id()}, {@code parameters()}, {@code correlation_id()}, {@code flags()},
 * {@code timeout()}, {@code requested_output_names()} and {@code is_cancelled()}.
 *
 * <p>A view, valid like its {@link Batch} only during {@link Engine#execute}, and read on the thread running it. A
 * sequence batch's padding row (Triton's null request) is a request with no id, parameters or correlation ID.
 */
public interface BatchRequest
{
    /** @return the request's id, {@code ""} when it has none */
    String id();

    /** @return the request's rows in the batch: {@code max(1, its batch size)} */
    int rows();

    /** @return the number of its custom parameters */
    int parameterCount();

    /**
     * @param index a parameter index, {@code 0 <= index < parameterCount()}
     * @return its key
     */
    String parameterName(int index);

    /**
     * @param index a parameter index
     * @return its value: a {@link String}, {@link Long}, {@link Boolean} or {@link Double}
     */
    Object parameterValue(int index);

    /** @return the numeric correlation ID (unsigned), 0 when none or when the ID is a string */
    long correlationId();

    /** @return the string correlation ID, or {@code null} when none or when it is a number */
    String correlationKey();

    /** @return whether the request starts its sequence (Triton's {@code TRITONSERVER_REQUEST_FLAG_SEQUENCE_START}) */
    boolean sequenceStart();

    /** @return whether the request ends its sequence ({@code TRITONSERVER_REQUEST_FLAG_SEQUENCE_END}) */
    boolean sequenceEnd();

    /** @return the timeout the caller gave the request, in microseconds; 0 when none */
    long timeoutMicros();

    /**
     * @param output an output name of the model's configuration
     * @return whether this request asked for it (a request that names no output asks for every one)
     */
    boolean isOutputRequested(String output);

    /** @return whether the caller cancelled the request, or its timeout has passed since it was accepted */
    boolean isCancelled();
}
