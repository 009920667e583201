package io.ingot.api;

import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;

/**
 * One inference request: model, optional version, id, input tensors as views over caller-owned memory, requested
 * outputs, priority, queue timeout, custom parameters for the model's backend, and a cancellation flag.
 *
 * <p>A request is a mutable, reusable object so that steady-state callers allocate nothing per request: fill it,
 * submit it, and once its response has been delivered, {@link #clearInputs() clear} and refill it. While a request is
 * in flight (from a successful submit until its response is delivered) it must not be modified, and the memory of
 * its inputs must stay valid and unchanged; every setter then throws {@link IllegalStateException}, and so does
 * submitting it again.
 *
 * <p>Threads: not thread-safe. One thread at a time fills it; submitting it hands it to the core, whose threads read
 * it while it is in flight; it is the caller's again when the response is delivered (the listener may already reuse
 * it). Only {@link #cancel()}, {@link #isCancelled()} and {@link #isInFlight()} may be called from any thread at any
 * time. Input memory is read on Ingot's threads, not only the submitter's: it must be accessible from any thread
 * (heap memory, or native memory of a global, automatic or shared arena; a confined arena's segments are not).
 *
 * <p>Ownership: the request holds references to its input segments and to its {@link ResponseAllocator}; it never
 * owns or frees that memory. Input shapes are copied when added.
 *
 * <p>Input shapes include the batch dimension when the model's {@code max_batch_size > 0}, exactly as in Triton's
 * protocol ({@code [1, 16]} for one row of a {@code dims: [16]} input). The request is checked against the model's
 * configuration when it is submitted; a mismatch is an {@link InferenceException} naming the request id, the model
 * and the tensor.
 */
public final class InferenceRequest
{
    /** Version number meaning "the model's default": the highest loaded version. */
    public static final long DEFAULT_VERSION = -1;

    private String modelName;
    private long modelVersion = DEFAULT_VERSION;
    private String id = "";
    private long priority;
    private long timeoutMicros;
    private long sequenceId;
    private String sequenceKey;
    private boolean sequenceStart;
    private boolean sequenceEnd;
    private ResponseAllocator responseAllocator;
    private RequestTrace trace;

    // Inputs, requested outputs and parameters live in tables of their own (each grows once and is reused), the
    // flight and its cancellation in an object of its own (the part other threads touch); the request keeps the
    // public methods, the idle check and the scalar fields.
    private final RequestInputTable inputs = new RequestInputTable();
    private final RequestedOutputList requestedOutputs = new RequestedOutputList();
    private final RequestParameterTable parameters = new RequestParameterTable();
    private final RequestFlight flight = new RequestFlight();
    /** The core's bookkeeping for this request, kept across submissions so that reusing a request allocates none. */
    private Object coreState;

    /**
     * @param modelName the model to run
     */
    public InferenceRequest(final String modelName)
    {
        this.modelName = modelName;
    }

    /** @return the model name. */
    public String modelName()
    {
        return modelName;
    }

    /**
     * @param modelName the model to run
     * @return this
     */
    public InferenceRequest modelName(final String modelName)
    {
        checkIdle();
        this.modelName = modelName;
        return this;
    }

    /** @return the requested version, or {@link #DEFAULT_VERSION}. */
    public long modelVersion()
    {
        return modelVersion;
    }

    /**
     * @param version a version number ({@code >= 0}), or {@link #DEFAULT_VERSION}
     * @return this
     */
    public InferenceRequest modelVersion(final long version)
    {
        checkIdle();
        this.modelVersion = version;
        return this;
    }

    /** @return the request id, {@code ""} when unset. */
    public String id()
    {
        return id;
    }

    /**
     * @param id the caller's id for this request, echoed in the response and in error messages
     * @return this
     */
    public InferenceRequest id(final String id)
    {
        checkIdle();
        this.id = id == null ? "" : id;
        return this;
    }

    /** @return the priority; 0 means the model's default level. */
    public long priority()
    {
        return priority;
    }

    /**
     * Sets the priority level (1 is the highest). As in Triton, 0 or a value above the model's
     * {@code priority_levels} means the model's {@code default_priority_level}; without {@code dynamic_batching}
     * priority is ignored.
     *
     * @param priority the level
     * @return this
     */
    public InferenceRequest priority(final long priority)
    {
        checkIdle();
        this.priority = priority;
        return this;
    }

    /** @return the queue timeout in microseconds; 0 means none. */
    public long timeoutMicros()
    {
        return timeoutMicros;
    }

    /**
     * Sets a queue timeout. As in Triton it applies only when the model's queue policy sets
     * {@code allow_timeout_override} and a non-zero {@code default_timeout_microseconds}, and only if shorter.
     *
     * @param timeoutMicros the timeout, {@code >= 0}
     * @return this
     */
    public InferenceRequest timeoutMicros(final long timeoutMicros)
    {
        checkIdle();
        if (timeoutMicros < 0)
        {
            throw new IllegalArgumentException("timeout must be >= 0 microseconds, was " + timeoutMicros);
        }
        this.timeoutMicros = timeoutMicros;
        return this;
    }

    /**
     * Makes the request part of a sequence with a numeric correlation ID, for a model with {@code sequence_batching}
     * (Triton's {@code sequence_id}, {@code sequence_start} and {@code sequence_end} parameters). The ID is unsigned:
     * a negative {@code long} stands for an ID of 2^63 or more, as Triton's gRPC {@code int64_param} carries it. ID 0
     * means "not in a sequence", which a sequence model refuses.
     *
     * @param id    the correlation ID (unsigned)
     * @param start whether this is the sequence's first request
     * @param end   whether this is its last
     * @return this
     */
    public InferenceRequest sequence(final long id, final boolean start, final boolean end)
    {
        checkIdle();
        this.sequenceId = id;
        this.sequenceKey = null;
        this.sequenceStart = start;
        this.sequenceEnd = end;
        return this;
    }

    /**
     * Makes the request part of a sequence with a string correlation ID (Triton's string {@code sequence_id}); the
     * string "5" and the number 5 are two different sequences. The empty string means "not in a sequence".
     *
     * @param id    the correlation ID
     * @param start whether this is the sequence's first request
     * @param end   whether this is its last
     * @return this
     */
    public InferenceRequest sequence(final String id, final boolean start, final boolean end)
    {
        checkIdle();
        this.sequenceId = 0;
        this.sequenceKey = id == null || id.isEmpty() ? null : id;
        this.sequenceStart = start;
        this.sequenceEnd = end;
        return this;
    }

    /** @return the numeric correlation ID (unsigned), 0 when none or when the ID is a string */
    public long sequenceId()
    {
        return sequenceId;
    }

    /** @return the string correlation ID, or {@code null} when none or when the ID is a number */
    public String sequenceKey()
    {
        return sequenceKey;
    }

    /** @return whether the request has a correlation ID (numeric non-zero or string non-empty) */
    public boolean inSequence()
    {
        return sequenceId != 0 || sequenceKey != null;
    }

    /** @return whether the request starts its sequence */
    public boolean sequenceStart()
    {
        return sequenceStart;
    }

    /** @return whether the request ends its sequence */
    public boolean sequenceEnd()
    {
        return sequenceEnd;
    }

    /** @return the allocator for output memory, or {@code null} for the core's default. */
    public ResponseAllocator responseAllocator()
    {
        return responseAllocator;
    }

    /**
     * @param allocator where outputs are written ({@link ResponseAllocator} says on which threads it is called);
     *                  {@code null} selects the core's default ({@link CoreOptions#responseAllocator()}, or Ingot's
     *                  pooled off-heap memory)
     * @return this
     */
    public InferenceRequest responseAllocator(final ResponseAllocator allocator)
    {
        checkIdle();
        this.responseAllocator = allocator;
        return this;
    }

    /** @return the trace the core fills for this request, or {@code null} (not traced: the default) */
    public RequestTrace trace()
    {
        return trace;
    }

    /**
     * Asks the core to record this request's timestamps (a frontend's trace sampling).
     *
     * @param requestTrace where the core writes them, or {@code null} for none
     * @return this
     */
    public InferenceRequest trace(final RequestTrace requestTrace)
    {
        checkIdle();
        this.trace = requestTrace;
        return this;
    }

    /**
     * Adds an input tensor. The shape values are copied; {@code data} is a view and is not copied.
     *
     * @param name     the input's name in the model configuration
     * @param dataType its element type
     * @param shape    its shape, including the batch dimension when the model batches
     * @param data     its bytes, row-major; must stay valid, unchanged and readable from any thread until the
     *                 response is delivered
     * @return this
     */
    public InferenceRequest addInput(final String name, final DataType dataType, final long[] shape,
        final MemorySegment data)
    {
        checkIdle();
        inputs.add(name, dataType, shape, data);
        return this;
    }

    /**
     * Asks for one output by name. When no output is requested, every output of the model is returned.
     *
     * @param name the output's name in the model configuration
     * @return this
     */
    public InferenceRequest requestOutput(final String name)
    {
        checkIdle();
        requestedOutputs.add(name);
        return this;
    }

    /**
     * Adds a request parameter: a custom parameter of Triton's protocol (any key but the ones its frontends interpret,
     * {@code priority}, {@code timeout}, {@code sequence_*}, {@code binary_data_output}), which the core does not
     * read and hands to the model's backend (Triton's {@code TRITONBACKEND_RequestParameter}: a Python model reads
     * them as {@code request.parameters()}).
     *
     * @param name  the key
     * @param value a {@link String}, {@link Long}, {@link Boolean} or {@link Double}, as Triton's parameter types
     * @return this
     * @throws IllegalArgumentException for a value of another type, or a {@code null} name
     */
    public InferenceRequest parameter(final String name, final Object value)
    {
        checkIdle();
        parameters.add(name, value);
        return this;
    }

    /** @return the number of request parameters, in the order they were added */
    public int parameterCount()
    {
        return parameters.count();
    }

    /**
     * @param index a parameter index
     * @return its key
     */
    public String parameterName(final int index)
    {
        return parameters.name(index);
    }

    /**
     * @param index a parameter index
     * @return its value: a {@link String}, {@link Long}, {@link Boolean} or {@link Double}
     */
    public Object parameterValue(final int index)
    {
        return parameters.value(index);
    }

    /**
     * Removes every request parameter.
     *
     * @return this
     */
    public InferenceRequest clearParameters()
    {
        checkIdle();
        parameters.clear();
        return this;
    }

    /**
     * Removes every input.
     *
     * @return this
     */
    public InferenceRequest clearInputs()
    {
        checkIdle();
        inputs.clear();
        return this;
    }

    /**
     * Removes every requested output (so that all outputs are returned).
     *
     * @return this
     */
    public InferenceRequest clearRequestedOutputs()
    {
        checkIdle();
        requestedOutputs.clear();
        return this;
    }

    /** @return the number of inputs. */
    public int inputCount()
    {
        return inputs.count();
    }

    /**
     * @param index input index, in the order added
     * @return the input's name
     */
    public String inputName(final int index)
    {
        return inputs.name(index);
    }

    /**
     * @param index input index
     * @return the input's element type
     */
    public DataType inputDataType(final int index)
    {
        return inputs.dataType(index);
    }

    /**
     * @param index input index
     * @return the rank of the input's shape
     */
    public int inputRank(final int index)
    {
        return inputs.rank(index);
    }

    /**
     * @param index     input index
     * @param dimension dimension index
     * @return the size of that dimension
     */
    public long inputDim(final int index, final int dimension)
    {
        return inputs.dim(index, dimension);
    }

    /**
     * @param index input index
     * @return a copy of the input's shape
     */
    public long[] inputShape(final int index)
    {
        return inputs.shape(index);
    }

    /**
     * @param index input index
     * @return the input's memory
     */
    public MemorySegment inputData(final int index)
    {
        return inputs.data(index);
    }

    /** @return the number of explicitly requested outputs; 0 means all. */
    public int requestedOutputCount()
    {
        return requestedOutputs.count();
    }

    /**
     * @param index requested-output index
     * @return its name
     */
    public String requestedOutput(final int index)
    {
        return requestedOutputs.name(index);
    }

    /**
     * Asks for cancellation; safe from any thread, and returns at once (it only flags the request and wakes the
     * thread that will answer it: the model's idle instance, or the core's timekeeper while every instance is busy).
     * A request still queued is answered with {@link ErrorCode#CANCELLED}; one already executing
     * completes normally (as in Triton). A request in a sequence cancels its sequence: every request of it still
     * queued is answered CANCELLED and the sequence ends (as Triton's sequence batcher does). Calling it on a request
     * that is not in flight (twice, or after its response) has no effect on its next submission, which clears the
     * flag.
     */
    public void cancel()
    {
        flight.cancel();
    }

    /** @return true once {@link #cancel()} was called (cleared when the request is submitted again). */
    public boolean isCancelled()
    {
        return flight.isCancelled();
    }

    /** @return true from a successful submit until the response is delivered. */
    public boolean isInFlight()
    {
        return flight.isInFlight();
    }

    boolean tryBeginFlight(final Runnable hook)
    {
        return flight.tryBegin(hook);
    }

    Object coreState()
    {
        return coreState;
    }

    void coreState(final Object state)
    {
        coreState = state;
    }

    void endFlight()
    {
        flight.end();
    }

    void endFlightDroppingHook()
    {
        flight.endDroppingHook();
    }

    private void checkIdle()
    {
        if (flight.isInFlight())
        {
            throw new IllegalStateException("request '" + id + "' for model '" + modelName
                + "' is in flight; it can be changed only after its response is delivered");
        }
    }

    @Override
    public String toString()
    {
        return "InferenceRequest{model='" + modelName + "', version=" + modelVersion + ", id='" + id + "', inputs="
            + inputs.count() + '}';
    }
}
