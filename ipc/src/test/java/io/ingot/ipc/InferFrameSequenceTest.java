package io.ingot.ipc;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sequence fields of INFER frames (flags 0x1/0x2/0x4, {@code sequence_id}, {@code sequence_id_length}): they
 * decode to what was written, a frame without them is the first release's frame byte for byte, and each malformed
 * combination is refused with a message that names it.
 */
class InferFrameSequenceTest
{
    private static final long SLAB_START = 4096;
    private static final long SLAB_END = SLAB_START + 4096;
    private static final long OUTPUT_AREA_START = SLAB_END - 1024;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment region = arena.allocate(1 << 14, 64);
    private final MemorySegment frame = arena.allocate(4096, 64);
    private final InferFrameDecoder decoder = new InferFrameDecoder();

    @AfterEach
    void close()
    {
        arena.close();
    }

    private static byte[] utf8(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Writes an INFER frame for {@code simple_sequence} with one INT32 [1,1] input; returns its length. */
    private int write(final int flags, final long sequenceId, final String sequenceKey)
    {
        frame.fill((byte)0x5A);
        final InferFrameFlyweight infer = new InferFrameFlyweight().wrap(frame, 0)
            .correlationId(7).modelVersion(-1).priority(0).timeoutMicros(0).inputCount(1).outputCount(0)
            .flags(flags);
        if ((flags & InferFrameFlyweight.FLAG_SEQUENCE) != 0)
        {
            infer.sequenceId(sequenceId);
        }
        infer.strings(utf8("simple_sequence"), utf8("r1"), utf8(sequenceKey));
        final TensorEntryFlyweight entry = new TensorEntryFlyweight().wrap(frame, infer.firstInputOffset())
            .rank(2).dataType(IpcDataType.INT32.code()).tensorOffset(SLAB_START).length(4);
        entry.dim(0, 1).dim(1, 1).name(utf8("INPUT"));
        return (int)(infer.firstInputOffset() + entry.encodedLength());
    }

    private int decode(final int length)
    {
        return decoder.decode(frame, 0, length, region, SLAB_START, OUTPUT_AREA_START, SLAB_END);
    }

    @Test
    void aNumericSequenceIdAndItsFlagsDecode()
    {
        final int length = write(InferFrameFlyweight.FLAG_SEQUENCE | InferFrameFlyweight.FLAG_SEQUENCE_START, -2L,
            "");
        assertEquals(IpcStatus.OK, decode(length), decoder.error());
        assertTrue(decoder.inSequence());
        assertTrue(decoder.sequenceStart());
        assertFalse(decoder.sequenceEnd());
        assertEquals("18446744073709551614", Long.toUnsignedString(decoder.sequenceId()));
        assertEquals(0, decoder.sequenceIdLength());
        assertEquals("simple_sequence", FrameText.get(frame, decoder.modelNameOffset(), decoder.modelNameLength()));
        assertEquals("r1", FrameText.get(frame, decoder.idOffset(), decoder.idLength()));
        assertEquals("INPUT", decoder.inputName(0));
        assertArrayEquals(new long[] {1, 1}, decoder.inputShape(0));
    }

    @Test
    void aStringSequenceIdFollowsTheRequestId()
    {
        final int length = write(InferFrameFlyweight.FLAG_SEQUENCE | InferFrameFlyweight.FLAG_SEQUENCE_END, 0,
            "session-ü");
        assertEquals(IpcStatus.OK, decode(length), decoder.error());
        assertTrue(decoder.sequenceEnd());
        assertFalse(decoder.sequenceStart());
        assertEquals(0, decoder.sequenceId());
        assertEquals("session-ü", FrameText.get(frame, decoder.sequenceIdOffset(), decoder.sequenceIdLength()));
        assertEquals("INPUT", decoder.inputName(0));
    }

    @Test
    void aFrameOutsideAnySequenceIsTheFirstReleasesFrame()
    {
        final int length = write(0, 0, "");
        assertEquals(IpcStatus.OK, decode(length), decoder.error());
        assertFalse(decoder.inSequence());
        assertEquals(InferFrameFlyweight.headerAndStringsLength(15, 2),
            InferFrameFlyweight.headerAndStringsLength(15, 2, false, 0));
        // Bytes 40..47 (flags, then what the first release called reserved) are all zero, the strings start at 48.
        assertEquals(0L, frame.get(SharedMemory.LONG, InferFrameFlyweight.FLAGS_OFFSET));
        assertEquals("simple_sequence", FrameText.get(frame, InferFrameFlyweight.STRINGS_OFFSET, 15));
    }

    private void assertInvalid(final int length, final String expected)
    {
        assertEquals(IpcStatus.INVALID_ARG, decode(length), "decoded although " + expected);
        assertTrue(decoder.error().contains(expected), "'" + decoder.error() + "' should say '" + expected + "'");
        assertEquals(7, decoder.correlationId(), "the error goes back to the request");
    }

    @Test
    void malformedSequenceFieldsAreRefusedWithAMessageNamingThem()
    {
        for (final var bad : List.of(
            new Object[] {0x80, 0L, "", "flags 0x80 set undefined bits 0x80"},
            new Object[] {InferFrameFlyweight.FLAG_SEQUENCE_START, 0L, "", "needs the sequence flag 0x1"},
            new Object[] {InferFrameFlyweight.FLAG_SEQUENCE, 5L, "five",
                "both the numeric sequence_id 5 and a string sequence id of 4 bytes"}))
        {
            assertInvalid(write((int)bad[0], (long)bad[1], (String)bad[2]), (String)bad[3]);
        }
        final int length = write(InferFrameFlyweight.FLAG_SEQUENCE, 0, "x");
        frame.set(SharedMemory.SHORT, InferFrameFlyweight.SEQUENCE_ID_LENGTH_OFFSET, (short)129);
        assertInvalid(length, "sequence_id_length 129 must be 0..128");
        write(InferFrameFlyweight.FLAG_SEQUENCE, 1, "");
        assertInvalid(InferFrameFlyweight.STRINGS_OFFSET, "ends before its 8-byte sequence_id");
        final int withKey = write(InferFrameFlyweight.FLAG_SEQUENCE, 0, "abc");
        frame.set(SharedMemory.SHORT, InferFrameFlyweight.SEQUENCE_ID_LENGTH_OFFSET, (short)120);
        assertInvalid(withKey, "ends inside its model name and id and sequence id");
    }
}
