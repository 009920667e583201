package io.ingot.ipc;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import static io.ingot.ipc.TestFrames.Input;
import static org.junit.jupiter.api.Assertions.*;

class InferFrameDecoderTest
{
    private static final long SLAB_START = 64 * 1024;
    private static final long SLAB_END = SLAB_START + 256 * 1024;
    private static final long OUTPUT_AREA_START = SLAB_START + 128 * 1024;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment region = arena.allocate(1 << 20, 64);
    private final MemorySegment frame = arena.allocate(IpcLimits.MAX_REQUEST_FRAME_LENGTH + 4096, 64);
    private final InferFrameDecoder decoder = new InferFrameDecoder();

    @AfterEach
    void close()
    {
        arena.close();
    }

    private int addSubFrame()
    {
        return TestFrames.writeInfer(frame, 0, 42, "add_sub", "req-1",
            List.of(new Input("INPUT0", IpcDataType.FP32, new long[] {1, 16}, SLAB_START, 64),
                new Input("INPUT1", IpcDataType.FP32, new long[] {1, 16}, SLAB_START + 64, 64)),
            List.of("OUTPUT0", "OUTPUT1"));
    }

    private int decode(final int length)
    {
        return decoder.decode(frame, 0, length, region, SLAB_START, OUTPUT_AREA_START, SLAB_END);
    }

    @Test
    void aValidFrameDecodesToItsFields()
    {
        final int length = addSubFrame();
        assertEquals(IpcStatus.OK, decode(length), decoder.error());
        assertEquals(42, decoder.correlationId());
        assertEquals(-1, decoder.modelVersion());
        assertEquals("add_sub", FrameText.get(frame, decoder.modelNameOffset(), decoder.modelNameLength()));
        assertEquals("req-1", FrameText.get(frame, decoder.idOffset(), decoder.idLength()));
        assertEquals(2, decoder.inputCount());
        assertEquals("INPUT1", decoder.inputName(1));
        assertEquals(IpcDataType.FP32, decoder.inputDataType(1));
        assertArrayEquals(new long[] {1, 16}, decoder.inputShape(1));
        assertEquals(SLAB_START + 64, decoder.inputOffset(1));
        assertEquals(64, decoder.inputLength(1));
        assertEquals(2, decoder.outputCount());
        assertEquals("OUTPUT1", FrameText.get(frame, decoder.outputNameOffset(1), decoder.outputNameLength(1)));
    }

    private void assertInvalid(final int length, final String expected)
    {
        assertEquals(IpcStatus.INVALID_ARG, decode(length), "decoded although " + expected);
        assertTrue(decoder.error().contains(expected), "error '" + decoder.error() + "' should say '" + expected
            + "'");
        assertEquals(42, decoder.correlationId(), "the error goes to the request's id");
    }

    private void assertInvalidAfter(final Consumer<MemorySegment> damage, final String expected)
    {
        final int length = addSubFrame();
        damage.accept(frame);
        assertInvalid(length, expected);
    }

    private static final long FIRST_INPUT = InferFrameFlyweight.headerAndStringsLength(7, 5);

    @Test
    void everyFieldIsCheckedWithAMessageNamingIt()
    {
        assertInvalidAfter(f -> f.set(SharedMemory.LONG, InferFrameFlyweight.MODEL_VERSION_OFFSET, -2),
            "model_version -2");
        assertInvalidAfter(f -> f.set(SharedMemory.LONG, InferFrameFlyweight.PRIORITY_OFFSET, -1), "priority -1");
        assertInvalidAfter(f -> f.set(SharedMemory.LONG, InferFrameFlyweight.TIMEOUT_OFFSET, -5), "timeout_us -5");
        assertInvalidAfter(f -> f.set(SharedMemory.INT, InferFrameFlyweight.FLAGS_OFFSET, 4), "flags 0x4");
        assertInvalidAfter(f -> f.set(SharedMemory.SHORT, InferFrameFlyweight.MODEL_NAME_LENGTH_OFFSET, (short)0),
            "model_name_length 0");
        assertInvalidAfter(f -> f.set(SharedMemory.SHORT, InferFrameFlyweight.ID_LENGTH_OFFSET, (short)129),
            "id_length 129");
        assertInvalidAfter(f -> f.set(SharedMemory.SHORT, InferFrameFlyweight.INPUT_COUNT_OFFSET, (short)33),
            "input_count 33");
        assertInvalidAfter(f -> f.set(SharedMemory.SHORT, InferFrameFlyweight.OUTPUT_COUNT_OFFSET, (short)40),
            "output_count 40");
        assertInvalidAfter(f -> f.set(ValueLayout.JAVA_BYTE, FIRST_INPUT + TensorEntryFlyweight.DATATYPE_OFFSET,
            (byte)15), "datatype code 15");
        assertInvalidAfter(f -> f.set(ValueLayout.JAVA_BYTE, FIRST_INPUT + TensorEntryFlyweight.RANK_OFFSET,
            (byte)9), "rank 9");
        assertInvalidAfter(f -> f.set(SharedMemory.SHORT, FIRST_INPUT, (short)200), "name_length 200");
        assertInvalidAfter(f -> f.set(SharedMemory.LONG, FIRST_INPUT + TensorEntryFlyweight.DIMS_OFFSET + 8, -16L),
            "dimension 1 is -16");
        assertInvalidAfter(f -> f.set(SharedMemory.LONG, FIRST_INPUT + TensorEntryFlyweight.DIMS_OFFSET + 8, 17L),
            "needs 68 bytes, but its length is 64");
        assertInvalidAfter(f -> f.set(SharedMemory.LONG, FIRST_INPUT + TensorEntryFlyweight.LENGTH_OFFSET, -64L),
            "length -64 is negative");
    }

    @Test
    void tensorsMustLieInsideTheClientsOwnSlab()
    {
        assertInvalidAfter(f -> f.set(SharedMemory.LONG, FIRST_INPUT + TensorEntryFlyweight.TENSOR_OFFSET_OFFSET,
            SLAB_START - 64), "outside this client's slab");
        assertInvalidAfter(f -> f.set(SharedMemory.LONG, FIRST_INPUT + TensorEntryFlyweight.TENSOR_OFFSET_OFFSET,
            SLAB_END - 32), "outside this client's slab");
        assertInvalidAfter(f -> f.set(SharedMemory.LONG, FIRST_INPUT + TensorEntryFlyweight.TENSOR_OFFSET_OFFSET,
            Long.MAX_VALUE - 16), "outside this client's slab");
        assertInvalidAfter(f ->
        {
            f.set(SharedMemory.LONG, FIRST_INPUT + TensorEntryFlyweight.LENGTH_OFFSET, Long.MAX_VALUE);
            f.set(SharedMemory.LONG, FIRST_INPUT + TensorEntryFlyweight.DIMS_OFFSET, Long.MAX_VALUE);
        }, "outside this client's slab");
        final int length = TestFrames.writeInfer(frame, 0, 42, "m", "", List.of(new Input("X", IpcDataType.UINT8,
            new long[] {16}, SLAB_END - 8, 16)), List.of());
        assertInvalid(length, "lie outside this client's slab [" + SLAB_START + ", " + SLAB_END + ")");
    }

    @Test
    void inputsInTheOutputAreaAreRefusedNamingTheTensorAndTheArea()
    {
        final String expected = "input 'X': bytes [" + (OUTPUT_AREA_START - 8) + ", " + (OUTPUT_AREA_START - 8)
            + " + 16) reach into this client's output area [" + OUTPUT_AREA_START + ", " + SLAB_END + "), where the "
            + "server writes outputs; place inputs in the input area [" + SLAB_START + ", " + OUTPUT_AREA_START + ")";
        final int straddling = TestFrames.writeInfer(frame, 0, 42, "m", "", List.of(new Input("X", IpcDataType.UINT8,
            new long[] {16}, OUTPUT_AREA_START - 8, 16)), List.of());
        assertInvalid(straddling, expected);
        final int inside = TestFrames.writeInfer(frame, 0, 42, "m", "", List.of(new Input("INPUT0",
            IpcDataType.UINT8, new long[] {16}, SLAB_START, 16), new Input("INPUT1", IpcDataType.FP32,
            new long[] {4}, OUTPUT_AREA_START + 64, 16)), List.of());
        assertInvalid(inside, "input 'INPUT1': bytes [" + (OUTPUT_AREA_START + 64) + ", ");
        assertInvalid(inside, "reach into this client's output area");
        final int lastInputBytes = TestFrames.writeInfer(frame, 0, 42, "m", "", List.of(new Input("X",
            IpcDataType.UINT8, new long[] {16}, OUTPUT_AREA_START - 16, 16)), List.of());
        assertEquals(IpcStatus.OK, decode(lastInputBytes), "the input area's last bytes are the client's");
        final int empty = TestFrames.writeInfer(frame, 0, 42, "m", "", List.of(new Input("X", IpcDataType.UINT8,
            new long[] {0}, OUTPUT_AREA_START + 64, 0)), List.of());
        assertEquals(IpcStatus.OK, decode(empty), "an empty tensor reads no byte, wherever it points");
    }

    @Test
    void aHugeShapeIsRefusedWithoutOverflow()
    {
        final int length = TestFrames.writeInfer(frame, 0, 42, "m", "", List.of(new Input("X", IpcDataType.FP64,
            new long[] {1L << 32, 1L << 32, 16}, SLAB_START, 64)), List.of());
        assertInvalid(length, "has more elements than a tensor can hold");
        final int fits = TestFrames.writeInfer(frame, 0, 42, "m", "", List.of(new Input("X", IpcDataType.FP64,
            new long[] {1L << 60}, SLAB_START, 64)), List.of());
        assertInvalid(fits, "needs more than");
    }

    @Test
    void frameLengthsMustMatchTheirContentsExactly()
    {
        final int length = addSubFrame();
        assertInvalid(length + 8, "contents end after " + length);
        assertInvalid(length - 8, "ends inside requested output 1");
        assertInvalid(47, "shorter than its 48-byte fixed part");
        assertInvalid(IpcLimits.MAX_REQUEST_FRAME_LENGTH + 8, "exceeds the limit");
        assertEquals(InferFrameDecoder.DROPPED, decode(7), "no correlation id can be read: dropped");
    }

    @Test
    void bytesTensorsMustBeValidLengthPrefixedElements()
    {
        final long at = SLAB_START + 1024;
        region.set(SharedMemory.INT, at, 3);
        region.set(SharedMemory.INT, at + 7, 1);
        final int valid = TestFrames.writeInfer(frame, 0, 42, "m", "", List.of(new Input("S", IpcDataType.BYTES,
            new long[] {2}, at, 12)), List.of());
        assertEquals(IpcStatus.OK, decode(valid), decoder.error());
        final int overlong = TestFrames.writeInfer(frame, 0, 42, "m", "", List.of(new Input("S", IpcDataType.BYTES,
            new long[] {2}, at, 11)), List.of());
        assertInvalid(overlong, "BYTES element 1 claims 1 bytes, but 0 bytes of the tensor remain");
        final int unused = TestFrames.writeInfer(frame, 0, 42, "m", "", List.of(new Input("S", IpcDataType.BYTES,
            new long[] {1}, at, 12)), List.of());
        assertInvalid(unused, "take 7 bytes, but its length is 12");
        final int tooMany = TestFrames.writeInfer(frame, 0, 42, "m", "", List.of(new Input("S", IpcDataType.BYTES,
            new long[] {4}, at, 12)), List.of());
        assertInvalid(tooMany, "need at least 4 x 4 bytes");
    }

    @Test
    void randomFramesNeverThrowAndAcceptedOnesAreSafe()
    {
        final Random random = new Random(1234);
        int accepted = 0;
        for (int round = 0; round < 20_000; round++)
        {
            final int length = random.nextInt(2048);
            for (int i = 0; i < length; i++)
            {
                frame.set(ValueLayout.JAVA_BYTE, i, (byte)random.nextInt());
            }
            accepted += decodeAndCheck(length) ? 1 : 0;
        }
        assertEquals(0, accepted, "random bytes are practically never a valid frame");
    }

    @Test
    void bitFlippedValidFramesNeverThrowAndAcceptedOnesAreSafe()
    {
        final Random random = new Random(99);
        int accepted = 0;
        int rejected = 0;
        for (int round = 0; round < 20_000; round++)
        {
            final int length = addSubFrame();
            final int flips = 1 + random.nextInt(4);
            for (int f = 0; f < flips; f++)
            {
                final int bit = random.nextInt(length * 8);
                final byte old = frame.get(ValueLayout.JAVA_BYTE, bit >> 3);
                frame.set(ValueLayout.JAVA_BYTE, bit >> 3, (byte)(old ^ (1 << (bit & 7))));
            }
            if (decodeAndCheck(length))
            {
                accepted++;
            }
            else
            {
                rejected++;
            }
        }
        assertTrue(accepted > 0 && rejected > 0, "flips in names and ids keep frames valid, flips in sizes do "
            + "not: accepted " + accepted + ", rejected " + rejected);
    }

    /** Decodes and, for an accepted frame, checks every promise the decoder makes. */
    private boolean decodeAndCheck(final int length)
    {
        final int status = decoder.decode(frame, 0, length, region, SLAB_START, OUTPUT_AREA_START, SLAB_END);
        if (status != IpcStatus.OK)
        {
            assertTrue(status == IpcStatus.INVALID_ARG || status == InferFrameDecoder.DROPPED);
            assertNotNull(decoder.error());
            return false;
        }
        assertTrue(decoder.modelNameLength() >= 1 && decoder.modelNameLength() <= IpcLimits.MAX_NAME_LENGTH);
        assertTrue(decoder.inputCount() <= IpcLimits.MAX_INPUTS && decoder.outputCount() <= IpcLimits.MAX_OUTPUTS);
        for (int i = 0; i < decoder.inputCount(); i++)
        {
            final long offset = decoder.inputOffset(i);
            final long bytes = decoder.inputLength(i);
            assertTrue(offset >= SLAB_START && bytes >= 0 && offset + bytes <= SLAB_END, "input inside the slab");
            assertTrue(bytes == 0 || offset + bytes <= OUTPUT_AREA_START, "input inside the input area");
            assertTrue(decoder.inputRank(i) <= IpcLimits.MAX_RANK);
            assertTrue(decoder.inputNameOffset(i) + decoder.inputNameLength(i) <= length);
            final IpcDataType type = decoder.inputDataType(i);
            if (type != IpcDataType.BYTES)
            {
                long elements = 1;
                for (final long dim : decoder.inputShape(i))
                {
                    elements = Math.multiplyExact(elements, dim);
                }
                assertEquals(bytes, Math.multiplyExact(elements, (long)type.byteSize()));
            }
        }
        return true;
    }
}
