package io.ingot.ipc;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.ingot.ipc.TestFrames.Input;
import io.ingot.testing.FuzzReport;
import org.junit.jupiter.api.AfterAll;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jazzer on the IPC server's INFER frame decoder, which reads frames that a client process wrote into shared memory:
 * a frame is either refused (INVALID_ARG with a reason, or dropped) or every offset, length and name it reports lies
 * inside the frame and the client's slab, every input in its input area. Anything else that escapes (an exception, a
 * bound outside) is a finding. Half the inputs start from a valid frame that the fuzzer then mutates, so that coverage
 * goes past the header checks within the CI budget ({@code -Dingot.fuzz.duration}, see RELIABILITY.md).
 */
class InferFrameDecoderFuzzer
{
    private static final long SLAB_START = 64 * 1024;
    private static final long SLAB_END = SLAB_START + 256 * 1024;
    private static final long OUTPUT_AREA_START = SLAB_START + 128 * 1024;
    private static final Arena ARENA = Arena.ofShared();
    private static final MemorySegment REGION = ARENA.allocate(1 << 20, 64);
    private static final MemorySegment FRAME = ARENA.allocate(IpcLimits.MAX_REQUEST_FRAME_LENGTH + 4096, 64);
    private static final InferFrameDecoder DECODER = new InferFrameDecoder();
    private static final FuzzReport REPORT = FuzzReport.start("IPC INFER frame decoder");

    @AfterAll
    static void report()
    {
        REPORT.print();
    }

    @FuzzTest(maxDuration = "10s")
    void framesAreRefusedOrStayInBounds(final FuzzedDataProvider data)
    {
        int length;
        if (data.consumeBoolean())
        {
            length = TestFrames.writeInfer(FRAME, 0, data.consumeLong(), data.consumeString(40),
                data.consumeString(40), List.of(new Input(data.consumeString(20), IpcDataType.FP32,
                    new long[] {data.consumeLong(-2, 64), 16}, SLAB_START + data.consumeLong(-64, 1 << 19),
                    data.consumeLong(-8, 1 << 19))), List.of(data.consumeString(20)));
            final byte[] flips = data.consumeBytes(64);
            for (int i = 0; i + 1 < flips.length; i += 2)
            {
                final long at = Byte.toUnsignedLong(flips[i]) % Math.max(1, length);
                FRAME.set(ValueLayout.JAVA_BYTE, at, flips[i + 1]);
            }
            length = data.consumeBoolean() ? length : data.consumeInt(0, length + 64);
        }
        else
        {
            final byte[] raw = data.consumeRemainingAsBytes();
            MemorySegment.copy(MemorySegment.ofArray(raw), 0, FRAME, 0, raw.length);
            length = raw.length;
        }
        final int status = DECODER.decode(FRAME, 0, length, REGION, SLAB_START, OUTPUT_AREA_START, SLAB_END);
        REPORT.tried(status != IpcStatus.OK);
        if (status == IpcStatus.OK)
        {
            assertTrue(DECODER.modelNameOffset() + DECODER.modelNameLength() <= length, "model name outside");
            for (int i = 0; i < DECODER.inputCount(); i++)
            {
                final long start = DECODER.inputOffset(i);
                final long end = start + DECODER.inputLength(i);
                assertTrue(start >= SLAB_START && end <= SLAB_END && start <= end, "input " + i + " [" + start
                    + ", " + end + ") is outside the slab");
                assertTrue(start == end || end <= OUTPUT_AREA_START, "input " + i + " [" + start + ", " + end
                    + ") reaches into the output area, where the server's outputs can overwrite it");
                assertTrue(DECODER.inputNameOffset(i) + DECODER.inputNameLength(i) <= length, "input name outside");
                DECODER.inputShape(i);
            }
            for (int i = 0; i < DECODER.outputCount(); i++)
            {
                assertTrue(DECODER.outputNameOffset(i) + DECODER.outputNameLength(i) <= length,
                    "output name outside");
            }
        }
        else if (status == IpcStatus.INVALID_ARG)
        {
            assertTrue(DECODER.error() != null && !DECODER.error().isEmpty(), "a refusal without a reason");
        }
    }
}
