package io.ingot.ipc;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Builds INFER frames with the flyweights, for tests. */
final class TestFrames
{
    record Input(String name, int dataType, long[] shape, long offset, long length)
    {
        Input(final String name, final IpcDataType type, final long[] shape, final long offset, final long length)
        {
            this(name, type.code(), shape, offset, length);
        }
    }

    private TestFrames()
    {
    }

    static int writeInfer(final MemorySegment buffer, final long offset, final long correlationId, final String model,
        final String id, final List<Input> inputs, final List<String> outputs)
    {
        final InferFrameFlyweight frame = new InferFrameFlyweight().wrap(buffer, offset)
            .correlationId(correlationId)
            .modelVersion(-1)
            .priority(0)
            .timeoutMicros(0)
            .inputCount(inputs.size())
            .outputCount(outputs.size())
            .flags(0)
            .strings(bytes(model), bytes(id));
        long cursor = frame.firstInputOffset();
        final TensorEntryFlyweight entry = new TensorEntryFlyweight();
        for (final Input input : inputs)
        {
            entry.wrap(buffer, cursor).rank(input.shape().length).dataType(input.dataType())
                .tensorOffset(input.offset()).length(input.length());
            for (int d = 0; d < input.shape().length; d++)
            {
                entry.dim(d, input.shape()[d]);
            }
            entry.name(bytes(input.name()));
            cursor += entry.encodedLength();
        }
        final OutputNameFlyweight output = new OutputNameFlyweight();
        for (final String name : outputs)
        {
            output.wrap(buffer, cursor).name(bytes(name));
            cursor += output.encodedLength();
        }
        return (int)(cursor - offset);
    }

    static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
