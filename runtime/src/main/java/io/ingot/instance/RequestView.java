package io.ingot.instance;

import io.ingot.api.InferenceRequest;
import io.ingot.backend.BatchRequest;
import io.ingot.config.proto.ModelConfig;
import io.ingot.scheduler.PendingRequest;
import io.ingot.time.NanoClock;

import java.util.HashMap;
import java.util.Map;

/**
 * The {@link BatchRequest} of one row of an instance's batches, rebound for every batch. A padding row of a sequence
 * batch (no request) reads as a request with nothing but its rows. Not thread-safe: the instance thread binds it and
 * the engine reads it during {@code execute}.
 */
final class RequestView implements BatchRequest
{
    private final Map<String, Integer> outputIndex = new HashMap<>();
    private final NanoClock clock;
    private PendingRequest pending;
    private InferenceRequest request;
    private int rows;

    /**
     * @param config the model's configuration (its outputs' names)
     * @param clock  the core's clock (for a request's timeout)
     */
    RequestView(final ModelConfig config, final NanoClock clock)
    {
        this.clock = clock;
        for (int o = 0; o < config.getOutputCount(); o++)
        {
            outputIndex.put(config.getOutput(o).getName(), o);
        }
    }

    /**
     * @param row  the row's request, or {@code null} for padding
     * @param size its rows
     * @return this
     */
    RequestView bind(final PendingRequest row, final int size)
    {
        pending = row;
        request = row == null ? null : row.request;
        rows = Math.max(1, size);
        return this;
    }

    @Override
    public String id()
    {
        return request == null ? "" : request.id();
    }

    @Override
    public int rows()
    {
        return rows;
    }

    @Override
    public int parameterCount()
    {
        return request == null ? 0 : request.parameterCount();
    }

    @Override
    public String parameterName(final int index)
    {
        return present().parameterName(index);
    }

    @Override
    public Object parameterValue(final int index)
    {
        return present().parameterValue(index);
    }

    @Override
    public long correlationId()
    {
        return request == null ? 0 : request.sequenceId();
    }

    @Override
    public String correlationKey()
    {
        return request == null ? null : request.sequenceKey();
    }

    @Override
    public boolean sequenceStart()
    {
        return request != null && request.sequenceStart();
    }

    @Override
    public boolean sequenceEnd()
    {
        return request != null && request.sequenceEnd();
    }

    @Override
    public long timeoutMicros()
    {
        return request == null ? 0 : request.timeoutMicros();
    }

    @Override
    public boolean isOutputRequested(final String output)
    {
        final Integer index = outputIndex.get(output);
        return pending != null && index != null && (pending.requestedOutputs & (1L << index)) != 0;
    }

    @Override
    public boolean isCancelled()
    {
        return pending != null && RequestDeadline.passed(pending, clock);
    }

    private InferenceRequest present()
    {
        if (request == null)
        {
            throw new IndexOutOfBoundsException("a padding row has no parameters");
        }
        return request;
    }
}
