package io.ingot.scheduler;

import io.ingot.api.InferenceRequest;

/**
 * A request's batching shape packed into one {@code long} by the thread that submits it, so that the holder of the
 * batching role can tell whether two requests' shapes match (triton-scheduling.md §2.10) without reading either
 * request: the request's shape lives in lines its caller wrote, which cost the role holder a cache miss per request,
 * while the key travels in the {@link PendingRequest} the holder reads anyway.
 *
 * <p>What is packed: for each input whose shape must match within a batch ({@link SchedulerSettings#shapeChecked()},
 * in that order), whether the request has it, its rank without the batch dimension (4 bits, 15 meaning absent) and
 * each of those dimensions (12 bits). Decoding from the low bits gives the shapes back for a fixed list of inputs, so
 * two keys of one model are equal exactly when the shapes are. A shape that does not fit in 63 bits (a dimension of
 * 4096 or more, a high rank, many checked inputs) gets {@link #NONE}, and {@link BatchShapes} compares such requests
 * the long way. Shape tensors' contents and the set of present optional inputs are not in the key.
 *
 * <p>Immutable; thread-safe.
 */
public final class ShapeKey
{
    /** The key of a shape that was not packed: compare the requests themselves. */
    public static final long NONE = -1;

    private static final int RANK_BITS = 4;
    private static final int ABSENT = (1 << RANK_BITS) - 1;
    private static final int DIM_BITS = 12;
    private static final long DIM_LIMIT = 1L << DIM_BITS;
    /** Bits a key may use: the sign bit stays clear, so no packed key equals {@link #NONE}. */
    private static final int KEY_BITS = 63;

    private final int[] checked;
    private final int firstDim;

    /**
     * @param settings       the model's scheduling settings
     * @param batchDimension true when request shapes carry a leading batch dimension ({@code max_batch_size > 0})
     */
    public ShapeKey(final SchedulerSettings settings, final boolean batchDimension)
    {
        this.checked = settings.shapeChecked();
        this.firstDim = batchDimension ? 1 : 0;
    }

    /**
     * @param request            the request
     * @param inputIndexByConfig for each configured input, the request's input index, or -1 when absent
     * @return the request's key, or {@link #NONE} when its shape does not fit one
     */
    public long of(final InferenceRequest request, final int[] inputIndexByConfig)
    {
        long key = 0;
        int used = 0;
        for (final int configIndex : checked)
        {
            final int input = inputIndexByConfig[configIndex];
            if (used + RANK_BITS > KEY_BITS)
            {
                return NONE;
            }
            if (input < 0)
            {
                key |= (long)ABSENT << used;
                used += RANK_BITS;
                continue;
            }
            final int rank = request.inputRank(input) - firstDim;
            if (rank < 0 || rank >= ABSENT || used + RANK_BITS + rank * DIM_BITS > KEY_BITS)
            {
                return NONE;
            }
            key |= (long)rank << used;
            used += RANK_BITS;
            for (int d = 0; d < rank; d++)
            {
                final long dim = request.inputDim(input, firstDim + d);
                if (dim < 0 || dim >= DIM_LIMIT)
                {
                    return NONE;
                }
                key |= dim << used;
                used += DIM_BITS;
            }
        }
        return key;
    }
}
