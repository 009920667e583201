package io.ingot.core;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.SequenceControl;
import io.ingot.tensor.DataType;

/**
 * The checks Triton's sequence batcher makes before it queues a request ({@code SequenceBatchScheduler::Enqueue},
 * triton-next.md §1.2–§1.3), with Triton's messages, and the copy of the request's sequence parameters into the
 * core's bookkeeping. The checks that need the batcher's state (a request without START for an unknown sequence) are
 * the policy's. Immutable; thread-safe.
 */
final class SequenceAdmission
{
    private final String model;
    /** The CORRID control tensor's name, or {@code null} when the model has none. */
    private final String corridName;
    /** Its datatype, or {@code null}. */
    private final DataType corridType;

    SequenceAdmission(final ModelConfig config)
    {
        this.model = config.getName();
        String name = null;
        DataType type = null;
        for (final ModelSequenceBatching.ControlInput input : config.getSequenceBatching().getControlInputList())
        {
            for (final ModelSequenceBatching.Control control : input.getControlList())
            {
                if (control.getKind() == ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_CORRID)
                {
                    name = input.getName();
                    type = DataType.fromConfigNumber(control.getDataTypeValue());
                }
            }
        }
        this.corridName = name;
        this.corridType = type;
    }

    /**
     * Checks a validated request and fills its sequence fields.
     *
     * @param request the request
     * @param pending its bookkeeping, with the batch size filled in
     * @throws InferenceException INVALID_ARG for a batch size above 1, a missing correlation ID, or an ID of the kind
     *                            the model's CORRID tensor cannot hold
     */
    void admit(final InferenceRequest request, final PendingRequest pending)
    {
        if (pending.batchSize > 1)
        {
            throw invalid("inference request to model '" + model
                + "' must specify batch-size 1 due to requirements of sequence batcher");
        }
        if (!request.inSequence())
        {
            throw invalid("inference request to model '" + model
                + "' must specify a non-zero or non-empty correlation ID");
        }
        final boolean text = request.sequenceKey() != null;
        if (corridType != null && text != (corridType == DataType.BYTES))
        {
            throw invalid("sequence batching control '" + corridName + "' data-type is '"
                + (text ? "BYTES" : "UINT64") + "', but model '" + model + "' expects '" + corridType + "'");
        }
        pending.correlationId = request.sequenceId();
        pending.correlationKey = request.sequenceKey();
        pending.sequenceFlags = (request.sequenceStart() ? SequenceControl.START : 0)
            | (request.sequenceEnd() ? SequenceControl.END : 0);
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
