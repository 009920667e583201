package io.ingot.tensorflow;

import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;
import io.ingot.tensorflow.capi.TensorFlowC;
import io.ingot.tensorflow.capi.TensorFlowException;
import io.ingot.tensorflow.capi.TensorReleases;
import io.ingot.tensorflow.capi.TfSession;
import io.ingot.tensorflow.capi.TfStatus;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Runs the batches of one model instance on its own TensorFlow session with one {@code TF_SessionRun} each.
 *
 * <p>Per batch: every input present becomes a {@code TF_Tensor} over the batch's memory ({@link InputFeed}: no copy
 * when aligned, which staging always is); only the requested outputs are fetched; each is copied once into
 * {@link Batch#allocateOutput} memory ({@link OutputFetch}); then every tensor is deleted. The arrays
 * {@code TF_SessionRun} reads and writes, the status and the deallocator stub are made once, with the engine; in steady
 * state a batch allocates no memory of its own, native or Java, beyond the small {@code MemorySegment} objects FFM
 * returns for pointers.
 *
 * <p><b>Lent memory.</b> After the tensors of a batch are deleted, TensorFlow must have released every buffer it was
 * lent ({@link TensorReleases#outstanding()} is zero): the runtime reuses that memory for the next batch. Should a
 * graph keep a reference (no op of the test models does), the batch fails with a message saying so and the engine
 * stops lending: from then on it copies inputs into tensors TensorFlow allocates ({@code TF_AllocateTensor}).
 *
 * <p>Used by one thread at a time, its instance's.
 */
final class SavedModelEngine implements Engine
{
    private static final System.Logger LOG = System.getLogger(SavedModelEngine.class.getName());

    private final String model;
    private final TfSession session;
    private final InputFeed[] inputs;
    private final OutputFetch[] outputs;
    private final Arena arena;
    private final TfStatus status = new TfStatus();
    private final TensorReleases releases;
    private final MemorySegment inputOutputs;
    private final MemorySegment inputValues;
    private final MemorySegment outputOutputs;
    private final MemorySegment outputValues;
    private final OutputFetch[] fetched;
    private boolean lending = true;

    /**
     * @param model   the model, for messages
     * @param session the instance's session; closed with the engine
     * @param inputs  one feed per input a batch may carry: the configured ones, the sequence controls, the states
     * @param outputs one fetch per configured output and per state output
     * @param arena   the memory the feeds, the fetches and this engine use; closed with the engine
     */
    SavedModelEngine(final String model, final TfSession session, final InputFeed[] inputs,
        final OutputFetch[] outputs, final Arena arena)
    {
        this.model = model;
        this.session = session;
        this.inputs = inputs;
        this.outputs = outputs;
        this.arena = arena;
        this.releases = new TensorReleases(arena);
        this.inputOutputs = arena.allocate(TensorFlowC.TF_OUTPUT, Math.max(1, inputs.length));
        this.inputValues = arena.allocate(ValueLayout.ADDRESS, Math.max(1, inputs.length));
        this.outputOutputs = arena.allocate(TensorFlowC.TF_OUTPUT, Math.max(1, outputs.length));
        this.outputValues = arena.allocate(ValueLayout.ADDRESS, Math.max(1, outputs.length));
        this.fetched = new OutputFetch[outputs.length];
    }

    @Override
    public void execute(final Batch batch)
    {
        int fed = 0;
        int fetches = 0;
        Throwable failure = null;
        try
        {
            for (final InputFeed feed : inputs)
            {
                final BatchInput input = batch.input(feed.name());
                if (input == null)
                {
                    continue;
                }
                inputValues.setAtIndex(ValueLayout.ADDRESS, fed, lending ? feed.tensor(input, releases)
                    : copied(feed, input));
                MemorySegment.copy(feed.output(), 0, inputOutputs, fed * TensorFlowC.TF_OUTPUT.byteSize(),
                    TensorFlowC.TF_OUTPUT.byteSize());
                fed++;
            }
            for (final OutputFetch fetch : outputs)
            {
                if (batch.isOutputRequested(fetch.name()))
                {
                    MemorySegment.copy(fetch.output(), 0, outputOutputs, fetches * TensorFlowC.TF_OUTPUT.byteSize(),
                        TensorFlowC.TF_OUTPUT.byteSize());
                    outputValues.setAtIndex(ValueLayout.ADDRESS, fetches, MemorySegment.NULL);
                    fetched[fetches++] = fetch;
                }
            }
            if (fetches == 0)
            {
                return;
            }
            TensorFlowC.TF_SessionRun(session.handle(), MemorySegment.NULL, inputOutputs, inputValues, fed,
                outputOutputs, outputValues, fetches, MemorySegment.NULL, 0, MemorySegment.NULL, status.handle());
            try
            {
                status.check("TF_SessionRun");
            }
            catch (final TensorFlowException e)
            {
                throw new IllegalStateException("model '" + model + "': " + e.getMessage(), e);
            }
            for (int i = 0; i < fetches; i++)
            {
                fetched[i].deliver(outputValues.getAtIndex(ValueLayout.ADDRESS, i), batch);
            }
        }
        catch (final RuntimeException | Error e)
        {
            failure = e;
            throw e;
        }
        finally
        {
            release(fed, fetches, failure);
        }
    }

    /**
     * After TensorFlow kept lent memory once: a tensor TensorFlow owns, filled with one copy (the headers of a
     * string input are copied; the strings they view stay the request's).
     */
    private MemorySegment copied(final InputFeed feed, final BatchInput input)
    {
        final MemorySegment lent = feed.tensor(input, releases);
        final MemorySegment source = TensorFlowC.tensorBytes(lent);
        final int rank = TensorFlowC.TF_NumDims(lent);
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment dims = call.allocate(ValueLayout.JAVA_LONG, Math.max(1, rank));
            for (int i = 0; i < rank; i++)
            {
                dims.setAtIndex(ValueLayout.JAVA_LONG, i, TensorFlowC.TF_Dim(lent, i));
            }
            final MemorySegment owned = TensorFlowC.TF_AllocateTensor(TensorFlowC.TF_TensorType(lent), dims, rank,
                source.byteSize());
            MemorySegment.copy(source, 0, TensorFlowC.tensorBytes(owned), 0, source.byteSize());
            return owned;
        }
        finally
        {
            TensorFlowC.TF_DeleteTensor(lent);
        }
    }

    private void release(final int fed, final int fetches, final Throwable failure)
    {
        for (int i = 0; i < fed; i++)
        {
            TensorFlowC.TF_DeleteTensor(inputValues.getAtIndex(ValueLayout.ADDRESS, i));
        }
        for (int i = 0; i < fetches; i++)
        {
            final MemorySegment tensor = outputValues.getAtIndex(ValueLayout.ADDRESS, i);
            if (tensor.address() != 0)
            {
                TensorFlowC.TF_DeleteTensor(tensor);
            }
            fetched[i] = null;
        }
        final long outstanding = releases.outstanding();
        if (outstanding != 0 && lending)
        {
            lending = false;
            final String message = "model '" + model + "': TensorFlow still holds " + outstanding + " input"
                + " buffer(s) after the batch's tensors were deleted; this instance now copies its inputs instead of"
                + " lending them";
            LOG.log(System.Logger.Level.ERROR, message);
            if (failure == null)
            {
                throw new IllegalStateException(message);
            }
        }
    }

    /** @return how many inputs were copied because they were not aligned */
    long unalignedCopies()
    {
        long copies = 0;
        for (final InputFeed feed : inputs)
        {
            copies += feed.copies();
        }
        return copies;
    }

    /** @return input buffers lent to TensorFlow and not yet released */
    long outstanding()
    {
        return releases.outstanding();
    }

    /** @return input buffers TensorFlow has released */
    long released()
    {
        return releases.released();
    }

    /**
     * True: {@code TF_SessionRun} may be called from any thread (the graph runs on the session's own thread pools),
     * the engine's arrays are in a shared arena, and a call's scratch arena is its own.
     */
    @Override
    public boolean runsOnAnyThread()
    {
        return true;
    }

    @Override
    public void close()
    {
        try
        {
            session.close();
        }
        finally
        {
            status.close();
            if (releases.outstanding() == 0)
            {
                arena.close();
            }
            else
            {
                // TensorFlow may still call the deallocator stub, which lives in this arena: keep it (a bounded leak).
                LOG.log(System.Logger.Level.ERROR, "model ''{0}'': TensorFlow still holds {1} lent buffer(s) at"
                    + " close; the engine''s native memory is kept", model, releases.outstanding());
            }
        }
    }
}
