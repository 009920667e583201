package io.ingot.cli;

import com.google.protobuf.TextFormat;
import io.ingot.tensor.DataType;
import io.ingot.config.proto.ModelConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TensorInputParserTest
{
    @TempDir
    Path directory;

    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close()
    {
        arena.close();
    }

    private static final ModelConfig ADD_SUB = config("""
        name: "add_sub" max_batch_size: 8
        input { name: "INPUT0" data_type: TYPE_FP32 dims: [4] }
        input { name: "INPUT1" data_type: TYPE_FP32 dims: [4] }
        output { name: "OUTPUT0" data_type: TYPE_FP32 dims: [4] }
        """);

    private static final ModelConfig MIXED = config("""
        name: "mixed"
        input { name: "ids" data_type: TYPE_INT8 dims: [-1] }
        input { name: "flags" data_type: TYPE_BOOL dims: [2] }
        input { name: "text" data_type: TYPE_STRING dims: [-1] }
        input { name: "grid" data_type: TYPE_FP32 dims: [-1, -1] }
        """);

    static ModelConfig config(final String text)
    {
        try
        {
            final ModelConfig.Builder builder = ModelConfig.newBuilder();
            TextFormat.merge(text, builder);
            return builder.build();
        }
        catch (final TextFormat.ParseException e)
        {
            throw new IllegalArgumentException(e);
        }
    }

    private TensorInputParser parser(final ModelConfig config, final Map<String, long[]> shapes)
    {
        return new TensorInputParser(config, shapes, arena);
    }

    @Test
    void parsesCommaSeparatedValuesWithABatchOfOne()
    {
        final TensorInput input = parser(ADD_SUB, Map.of()).parse("INPUT0=1, 2.5,-3,4e2");
        assertEquals(DataType.FP32, input.dataType());
        assertArrayEquals(new long[] {1, 4}, input.shape());
        assertArrayEquals(new float[] {1, 2.5f, -3, 400}, input.data().toArray(ValueLayout.JAVA_FLOAT));
    }

    @Test
    void takesAGivenShapeWithTheBatchDimension()
    {
        final TensorInput input = parser(ADD_SUB, Map.of("INPUT0", new long[] {2, 4})).parse("INPUT0=1,2,3,4,5,6,7,8");
        assertArrayEquals(new long[] {2, 4}, input.shape());
    }

    @Test
    void worksOutASingleVariableDimensionFromTheValueCount()
    {
        final TensorInput input = parser(MIXED, Map.of()).parse("ids=-128,0,127");
        assertArrayEquals(new long[] {3}, input.shape());
        assertArrayEquals(new byte[] {-128, 0, 127}, input.data().toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void encodesBooleansAndStrings()
    {
        final TensorInputParser parser = parser(MIXED, Map.of());
        assertArrayEquals(new byte[] {1, 0}, parser.parse("flags=true,0").data().toArray(ValueLayout.JAVA_BYTE));
        final TensorInput text = parser.parse("text=hi,über");
        assertArrayEquals(new long[] {2}, text.shape());
        final ByteBuffer expected = ByteBuffer.allocate(4 + 2 + 4 + 5).order(ByteOrder.LITTLE_ENDIAN);
        expected.putInt(2).put("hi".getBytes(StandardCharsets.UTF_8)).putInt(5)
            .put("über".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(expected.array(), text.data().toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void namesTheModelAndItsInputsForAnUnknownName()
    {
        final CliException error = assertThrows(CliException.class, () -> parser(ADD_SUB, Map.of()).parse("INPUTX=1"));
        assertEquals(CliException.USAGE, error.exitCode());
        assertEquals("model 'add_sub' has no input 'INPUTX'; its inputs are INPUT0 (TYPE_FP32 [4]), INPUT1 (TYPE_FP32"
            + " [4])", error.getMessage());
    }

    @Test
    void reportsAWrongElementCount()
    {
        final CliException error = assertThrows(CliException.class,
            () -> parser(ADD_SUB, Map.of()).parse("INPUT0=1,2,3"));
        assertEquals("input 'INPUT0' of model 'add_sub' needs 4 values for shape [1,4], got 3", error.getMessage());
    }

    @Test
    void reportsAnUnparsableValueWithItsPosition()
    {
        final CliException error = assertThrows(CliException.class,
            () -> parser(ADD_SUB, Map.of()).parse("INPUT0=1,2,abc,4"));
        assertEquals("input 'INPUT0': value 3 of 4 ('abc') is not a valid FP32 value", error.getMessage());
        final CliException range = assertThrows(CliException.class, () -> parser(MIXED, Map.of()).parse("ids=1,300"));
        assertEquals("input 'ids': value 2 of 2 ('300') is not a valid INT8 value (range is [-128, 127])",
            range.getMessage());
    }

    @Test
    void asksForAShapeWhenTwoDimensionsAreVariable()
    {
        final CliException error = assertThrows(CliException.class, () -> parser(MIXED, Map.of()).parse("grid=1,2"));
        assertEquals("input 'grid' of model 'mixed' has more than one variable dimension [-1, -1]; give its full shape"
            + " with --shape grid=...", error.getMessage());
        assertArrayEquals(new long[] {1, 2},
            parser(MIXED, Map.of("grid", new long[] {1, 2})).parse("grid=1,2").shape());
    }

    @Test
    void rejectsAShapeThatDoesNotFitTheDimsOrTheBatchLimit()
    {
        final CliException dims = assertThrows(CliException.class,
            () -> parser(ADD_SUB, Map.of("INPUT0", new long[] {1, 5})).parse("INPUT0=1,2,3,4,5"));
        assertEquals("input 'INPUT0' of model 'add_sub': shape [1,5] does not fit its dims [4] (with a leading batch"
            + " dimension, the model batches)", dims.getMessage());
        final CliException batch = assertThrows(CliException.class,
            () -> parser(ADD_SUB, Map.of("INPUT0", new long[] {9, 4})).parse("INPUT0=" + "1,".repeat(35) + "1"));
        assertEquals("input 'INPUT0' of model 'add_sub': batch size 9 is outside [1, 8] (max_batch_size)",
            batch.getMessage());
    }

    @Test
    void readsNpyFilesAndChecksTheirType() throws Exception
    {
        final Path npy = directory.resolve("row.npy");
        Files.write(npy, NpyArrayTest.npy("<f4", "(4,)", floats(1, 2, 3, 4)));
        final TensorInput input = parser(ADD_SUB, Map.of()).parse("INPUT0=" + npy);
        assertArrayEquals(new long[] {1, 4}, input.shape());
        assertArrayEquals(new float[] {1, 2, 3, 4}, input.data().toArray(ValueLayout.JAVA_FLOAT));

        final Path ints = directory.resolve("ints.npy");
        Files.write(ints, NpyArrayTest.npy("<i4", "(1, 4)", new byte[16]));
        final CliException error = assertThrows(CliException.class,
            () -> parser(ADD_SUB, Map.of()).parse("INPUT0=" + ints));
        assertEquals("input 'INPUT0' of model 'add_sub' is FP32 but '" + ints + "' holds INT32", error.getMessage());
    }

    @Test
    void readsRawLittleEndianFiles() throws Exception
    {
        final Path raw = directory.resolve("row.bin");
        Files.write(raw, floats(5, 6, 7, 8));
        final TensorInput input = parser(ADD_SUB, Map.of()).parse("INPUT1=@" + raw);
        assertArrayEquals(new float[] {5, 6, 7, 8}, input.data().toArray(ValueLayout.JAVA_FLOAT));

        Files.write(raw, new byte[6]);
        final CliException error = assertThrows(CliException.class, () -> parser(ADD_SUB, Map.of()).parse("INPUT1="
            + raw));
        assertEquals("input 'INPUT1': '" + raw + "' has 6 bytes, not a whole number of FP32 elements (4 bytes each)",
            error.getMessage());
    }

    @Test
    void listsEveryMissingInput()
    {
        final TensorInputParser parser = parser(ADD_SUB, Map.of());
        final CliException error = assertThrows(CliException.class,
            () -> parser.checkComplete(List.of(parser.parse("INPUT1=1,2,3,4"))));
        assertEquals("model 'add_sub' needs --input for INPUT0 (TYPE_FP32 [4])", error.getMessage());
    }

    static byte[] floats(final float... values)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (final float value : values)
        {
            buffer.putFloat(value);
        }
        return buffer.array();
    }
}
