package io.ingot.scheduler;

import io.ingot.api.InferenceRequest;

import java.lang.foreign.MemorySegment;

/**
 * Triton's rule for which requests may share a batch (triton-scheduling.md §2.10): the first request of a batch is the
 * reference; every input with a {@code -1} dimension and no {@code allow_ragged_batch} must have its shape (the batch
 * dimension excepted), every shape tensor its shape and its bytes, and — when some input is optional — every request
 * the same set of inputs. Shapes packed into {@link ShapeKey}s when the requests were submitted are compared by key,
 * without reading the requests. Immutable.
 */
final class BatchShapes
{
    private final SchedulerSettings settings;
    private final int firstDim;

    BatchShapes(final SchedulerSettings settings, final boolean batchDimension)
    {
        this.settings = settings;
        this.firstDim = batchDimension ? 1 : 0;
    }

    /**
     * @param reference the first request of the batch
     * @param candidate a later request
     * @return whether the candidate may join the reference's batch
     */
    boolean batchable(final PendingRequest reference, final PendingRequest candidate)
    {
        if (settings.optionalInputs() && reference.presentInputs != candidate.presentInputs)
        {
            return false;
        }
        final InferenceRequest ra = reference.request;
        final InferenceRequest rb = candidate.request;
        if (reference.shapeKey != ShapeKey.NONE && candidate.shapeKey != ShapeKey.NONE)
        {
            // Both shapes were packed when submitted: equal keys are equal shapes, and neither request is read.
            if (reference.shapeKey != candidate.shapeKey)
            {
                return false;
            }
        }
        else if (!sameShapes(reference, candidate))
        {
            return false;
        }
        for (final int configIndex : settings.contentChecked())
        {
            final int a = reference.inputIndexByConfig[configIndex];
            final int b = candidate.inputIndexByConfig[configIndex];
            if (a >= 0 && b >= 0)
            {
                if (!sameBytes(ra.inputData(a), rb.inputData(b)))
                {
                    return false;
                }
            }
        }
        return true;
    }

    /** The shape rule read from the requests themselves: presence, rank and every dimension but the batch one. */
    private boolean sameShapes(final PendingRequest reference, final PendingRequest candidate)
    {
        final InferenceRequest ra = reference.request;
        final InferenceRequest rb = candidate.request;
        for (final int configIndex : settings.shapeChecked())
        {
            final int a = reference.inputIndexByConfig[configIndex];
            final int b = candidate.inputIndexByConfig[configIndex];
            if (a < 0 || b < 0)
            {
                if (a != b)
                {
                    return false;
                }
                continue;
            }
            final int rank = ra.inputRank(a);
            if (rank != rb.inputRank(b))
            {
                return false;
            }
            for (int d = firstDim; d < rank; d++)
            {
                if (ra.inputDim(a, d) != rb.inputDim(b, d))
                {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Shape tensors' bytes. Memory this thread cannot read (freed by its caller after submitting, against the API's
     * contract) compares unequal, so that the request is batched alone and fails alone, at assembly, instead of
     * stopping batch formation for the whole model.
     */
    private static boolean sameBytes(final MemorySegment a, final MemorySegment b)
    {
        if (a.byteSize() != b.byteSize())
        {
            return false;
        }
        try
        {
            return a.mismatch(b) == -1;
        }
        catch (final IllegalStateException | WrongThreadException ex)
        {
            return false;
        }
    }

    /** @return whether any check applies (when none does, every request is batchable with every other) */
    boolean anyCheck()
    {
        return settings.optionalInputs() || settings.shapeChecked().length > 0 || settings.contentChecked().length > 0;
    }
}
