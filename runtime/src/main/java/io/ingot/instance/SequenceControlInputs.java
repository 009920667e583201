package io.ingot.instance;

import io.ingot.backend.BatchInput;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.device.PinnedAllocator;
import io.ingot.scheduler.FormedBatch;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.SequenceControl;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The control tensors a sequence batcher adds to every batch of a model with {@code sequence_batching}
 * (triton-next.md §1.4): for each {@code control_input}, one input of shape {@code [B, 1]} ({@code [1]} without a
 * batch dimension) whose row holds the configured false or true value of START, END or READY, or the row's
 * correlation ID (a number truncated little-endian to the configured type, or a string as a BYTES element); padding
 * rows hold false and ID 0. Reused for every batch of one instance; not thread-safe.
 */
final class SequenceControlInputs
{
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat FLOAT =
        ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final byte[] NO_BYTES = new byte[0];

    /** One control tensor: its kind, its datatype and, for the flags, its false and true values. */
    private record Control(ModelSequenceBatching.Control.Kind kind, DataType type, int falseInt, int trueInt,
        float falseFloat, float trueFloat)
    {
    }

    private final Control[] controls;
    private final AssembledBatch.InputView[] views;
    private final StagingBuffer[] staging;
    private final boolean batchDimension;
    /** Scratch: each row's string ID, encoded once per batch. */
    private byte[][] rowKeys = new byte[0][];

    SequenceControlInputs(final ModelConfig config, final PinnedAllocator allocator)
    {
        final var inputs = config.getSequenceBatching().getControlInputList();
        controls = new Control[inputs.size()];
        views = new AssembledBatch.InputView[inputs.size()];
        staging = new StagingBuffer[inputs.size()];
        batchDimension = config.getMaxBatchSize() > 0;
        for (int i = 0; i < controls.length; i++)
        {
            final ModelSequenceBatching.Control control = inputs.get(i).getControl(0);
            controls[i] = controlOf(control);
            views[i] = new AssembledBatch.InputView(inputs.get(i).getName(), controls[i].type());
            staging[i] = new StagingBuffer(allocator);
        }
    }

    private static Control controlOf(final ModelSequenceBatching.Control control)
    {
        if (control.getKind() == ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_CORRID)
        {
            return new Control(control.getKind(), DataType.fromConfigNumber(control.getDataTypeValue()), 0, 0, 0f, 0f);
        }
        if (control.getInt32FalseTrueCount() == 2)
        {
            return new Control(control.getKind(), DataType.INT32, control.getInt32FalseTrue(0),
                control.getInt32FalseTrue(1), 0f, 0f);
        }
        if (control.getFp32FalseTrueCount() == 2)
        {
            return new Control(control.getKind(), DataType.FP32, 0, 0, control.getFp32FalseTrue(0),
                control.getFp32FalseTrue(1));
        }
        return new Control(control.getKind(), DataType.BOOL, control.getBoolFalseTrue(0) ? 1 : 0,
            control.getBoolFalseTrue(1) ? 1 : 0, 0f, 0f);
    }

    /** @return the number of control tensors */
    int count()
    {
        return views.length;
    }

    /**
     * @param index a control tensor's index
     * @return its input, as filled by the last {@link #fill}
     */
    BatchInput view(final int index)
    {
        return views[index];
    }

    /**
     * @param name an input name
     * @return the control tensor of that name, or {@code null}
     */
    BatchInput byName(final String name)
    {
        for (final AssembledBatch.InputView view : views)
        {
            if (view.name.equals(name))
            {
                return view;
            }
        }
        return null;
    }

    /**
     * Writes every control tensor for the batch's rows.
     *
     * @param batch the batch a sequence policy formed (one row per request or padding)
     */
    void fill(final FormedBatch batch)
    {
        final int rows = batch.count();
        for (int c = 0; c < views.length; c++)
        {
            final Control control = controls[c];
            final AssembledBatch.InputView view = views[c];
            view.present = true;
            view.rank = batchDimension ? 2 : 1;
            view.shape[0] = batchDimension ? rows : 1;
            view.shape[1] = 1;
            view.data = control.type() == DataType.BYTES ? fillStrings(batch, staging[c])
                : fillFixed(batch, control, staging[c].slice((long) rows * control.type().byteSize()));
        }
    }

    private static MemorySegment fillFixed(final FormedBatch batch, final Control control, final MemorySegment data)
    {
        final int width = control.type().byteSize();
        for (int r = 0; r < batch.count(); r++)
        {
            final long offset = (long) r * width;
            if (control.kind() == ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_CORRID)
            {
                final PendingRequest row = batch.get(r);
                final long id = row == null ? 0 : row.correlationId;
                if (width == 8)
                {
                    data.set(LONG, offset, id);
                }
                else
                {
                    data.set(INT, offset, (int) id);
                }
                continue;
            }
            final boolean on = SequenceControl.has(batch.control(r), bitOf(control.kind()));
            switch (control.type())
            {
                case FP32 -> data.set(FLOAT, offset, on ? control.trueFloat() : control.falseFloat());
                case BOOL -> data.set(ValueLayout.JAVA_BYTE, offset, (byte) (on ? control.trueInt()
                    : control.falseInt()));
                default -> data.set(INT, offset, on ? control.trueInt() : control.falseInt());
            }
        }
        return data;
    }

    /** A string correlation ID per row: a 4-byte little-endian length and the UTF-8 bytes (empty for padding). */
    private MemorySegment fillStrings(final FormedBatch batch, final StagingBuffer staging)
    {
        if (rowKeys.length < batch.count())
        {
            rowKeys = new byte[batch.count()][];
        }
        long total = 0;
        for (int r = 0; r < batch.count(); r++)
        {
            final PendingRequest row = batch.get(r);
            rowKeys[r] = row == null || row.correlationKey == null ? NO_BYTES
                : row.correlationKey.getBytes(StandardCharsets.UTF_8);
            total += 4 + rowKeys[r].length;
        }
        final MemorySegment data = staging.slice(total);
        long offset = 0;
        for (int r = 0; r < batch.count(); r++)
        {
            final byte[] bytes = rowKeys[r];
            rowKeys[r] = null;
            data.set(INT, offset, bytes.length);
            MemorySegment.copy(MemorySegment.ofArray(bytes), 0, data, offset + 4, bytes.length);
            offset += 4 + bytes.length;
        }
        return data;
    }

    private static int bitOf(final ModelSequenceBatching.Control.Kind kind)
    {
        return switch (kind)
        {
            case CONTROL_SEQUENCE_START -> SequenceControl.START;
            case CONTROL_SEQUENCE_END -> SequenceControl.END;
            default -> SequenceControl.READY;
        };
    }

    /** Frees the staging memory (the instance is closing). */
    void close()
    {
        for (final StagingBuffer buffer : staging)
        {
            buffer.close();
        }
    }
}
