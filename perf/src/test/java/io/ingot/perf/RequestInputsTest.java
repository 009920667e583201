package io.ingot.perf;

import io.ingot.tensor.DataType;
import io.ingot.api.TensorMetadata;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestInputsTest
{
    private static final List<TensorMetadata> TOKENS = List.of(
        new TensorMetadata("input_ids", DataType.INT64, List.of(-1L, -1L)),
        new TensorMetadata("attention_mask", DataType.INT64, List.of(-1L, -1L)));

    @Test
    void batchDimensionIsReplacedByTheBatchSizeAndVariableDimsByShape()
    {
        final RequestInputs inputs = RequestInputs.resolve("minilm", "", 16, TOKENS, List.of("out"), 4,
            Map.of("input_ids", new long[] {8}, "attention_mask", new long[] {8}), Map.of(), 1);
        assertArrayEquals(new long[] {4, 8}, inputs.inputs().get(0).shape());
        assertEquals(4 * 8 * 8, inputs.inputs().get(0).data().length);
        assertEquals(2L * 4 * 8 * 8, inputs.requestBytes());
        assertEquals(4, inputs.batchSize());
    }

    @Test
    void constantValuesFillTheInput()
    {
        final RequestInputs inputs = RequestInputs.resolve("minilm", "", 16, TOKENS, List.of("out"), 1,
            Map.of("input_ids", new long[] {3}, "attention_mask", new long[] {3}), Map.of("attention_mask", "1"), 1);
        final ByteBuffer mask = ByteBuffer.wrap(inputs.inputs().get(1).data()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 3; i++)
        {
            assertEquals(1L, mask.getLong());
        }
    }

    @Test
    void randomIntegersAreSmallNonNegativeIndices()
    {
        final RequestInputs inputs = RequestInputs.resolve("m", "", 0,
            List.of(new TensorMetadata("ids", DataType.INT32, List.of(1000L))), List.of(), 1, Map.of(), Map.of(), 7);
        final ByteBuffer ids = ByteBuffer.wrap(inputs.inputs().get(0).data()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 1000; i++)
        {
            final int id = ids.getInt();
            assertTrue(id >= 0 && id < 100, "id " + id);
        }
    }

    @Test
    void bytesElementsCarryLengthPrefixes()
    {
        final RequestInputs inputs = RequestInputs.resolve("m", "", 0,
            List.of(new TensorMetadata("text", DataType.BYTES, List.of(2L))), List.of(), 1, Map.of(),
            Map.of("text", "abc"), 1);
        final ByteBuffer text = ByteBuffer.wrap(inputs.inputs().get(0).data()).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(2 * (4 + 3), text.remaining());
        assertEquals(3, text.getInt());
    }

    @Test
    void variableDimensionWithoutShapeIsAUsageErrorNamingTheInput()
    {
        final PerfException error = assertThrows(PerfException.class,
            () -> RequestInputs.resolve("minilm", "", 16, TOKENS, List.of(), 1, Map.of(), Map.of(), 1));
        assertEquals(PerfException.USAGE, error.exitCode());
        assertTrue(error.getMessage().contains("'input_ids'") && error.getMessage().contains("--shape"),
            error.getMessage());
    }

    @Test
    void shapeOfTheWrongRankOrAnUnknownInputIsRefused()
    {
        assertThrows(PerfException.class, () -> RequestInputs.resolve("minilm", "", 16, TOKENS, List.of(), 1,
            Map.of("input_ids", new long[] {8, 2}, "attention_mask", new long[] {8}), Map.of(), 1));
        final PerfException unknown = assertThrows(PerfException.class, () -> RequestInputs.resolve("minilm", "",
            16, TOKENS, List.of(), 1, Map.of("nope", new long[] {8}), Map.of(), 1));
        assertTrue(unknown.getMessage().contains("'nope'"), unknown.getMessage());
    }

    @Test
    void batchSizeMustFitTheModel()
    {
        final List<TensorMetadata> fixed = List.of(new TensorMetadata("x", DataType.FP32, List.of(-1L, 4L)));
        final PerfException tooBig = assertThrows(PerfException.class,
            () -> RequestInputs.resolve("m", "", 8, fixed, List.of(), 9, Map.of(), Map.of(), 1));
        assertTrue(tooBig.getMessage().contains("max_batch_size 8"), tooBig.getMessage());
        final List<TensorMetadata> unbatched = List.of(new TensorMetadata("x", DataType.FP32, List.of(4L)));
        final PerfException notBatching = assertThrows(PerfException.class,
            () -> RequestInputs.resolve("m", "", 0, unbatched, List.of(), 2, Map.of(), Map.of(), 1));
        assertTrue(notBatching.getMessage().contains("does not batch"), notBatching.getMessage());
    }

    @Test
    void nonNumericConstantIsRefused()
    {
        final List<TensorMetadata> fixed = List.of(new TensorMetadata("x", DataType.FP32, List.of(4L)));
        final PerfException error = assertThrows(PerfException.class,
            () -> RequestInputs.resolve("m", "", 0, fixed, List.of(), 1, Map.of(), Map.of("x", "one"), 1));
        assertTrue(error.getMessage().contains("x=one"), error.getMessage());
    }

    @Test
    void shapeAndValueOptionsAreParsed()
    {
        assertArrayEquals(new long[] {1, 128}, RequestInputs.parseShapes(List.of("input_ids:1,128")).get("input_ids"));
        assertEquals("0", RequestInputs.parseValues(List.of("token_type_ids=0")).get("token_type_ids"));
        assertThrows(PerfException.class, () -> RequestInputs.parseShapes(List.of("input_ids")));
        assertThrows(PerfException.class, () -> RequestInputs.parseShapes(List.of("input_ids:a,b")));
        assertThrows(PerfException.class, () -> RequestInputs.parseValues(List.of("=3")));
    }
}
