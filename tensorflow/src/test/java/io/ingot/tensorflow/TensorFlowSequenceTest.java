package io.ingot.tensorflow;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.tensor.DataType;
import io.ingot.testing.Sequences;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SavedModels with sequence controls and implicit state, written by the module's writer, served by a real core: the
 * START, END, READY values and the CORRID of every type Triton allows as the graph is fed them, a running total
 * carried in implicit state from zeros or a data file and reset at START, a state that may grow (dims {@code -1}) or
 * must not, and bad sequence models failing alone with their reasons.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TensorFlowSequenceTest
{
    private static final int[] VALUES = {11, 7, 5, 3, 2, 0, 1};
    private static final String INT32_START = "int32_false_true: [ -1, 7 ]";

    private InferenceCore core;

    @BeforeAll
    void serve(@TempDir final Path root) throws Exception
    {
        for (final DataType corrid : List.of(DataType.UINT64, DataType.INT64, DataType.UINT32, DataType.INT32,
            DataType.BYTES))
        {
            final String name = "controls_" + corrid.name().toLowerCase(java.util.Locale.ROOT);
            TestSavedModels.model(root, name, SequenceSavedModels.controlsConfig(name, configName(corrid),
                INT32_START), SequenceSavedModels.controlsEcho(corrid, DataType.INT32));
        }
        TestSavedModels.model(root, "total_from_zero", SequenceSavedModels.accumulatorConfig("total_from_zero",
            "zero_data: true"), SequenceSavedModels.accumulator());
        TestSavedModels.model(root, "total_from_file", SequenceSavedModels.accumulatorConfig("total_from_file",
            "data_file: \"start_at_100\""), SequenceSavedModels.accumulator());
        Files.createDirectories(root.resolve("total_from_file").resolve("initial_state"));
        Files.write(root.resolve("total_from_file").resolve("initial_state").resolve("start_at_100"),
            ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(100).array());
        TestSavedModels.model(root, "grows", SequenceSavedModels.growingConfig("grows", "-1"),
            SequenceSavedModels.growing());
        TestSavedModels.model(root, "must_not_grow", SequenceSavedModels.growingConfig("must_not_grow", "1"),
            SequenceSavedModels.growing());

        // Bad ones: each fails alone.
        TestSavedModels.model(root, "wrong_corrid", SequenceSavedModels.controlsConfig("wrong_corrid", "TYPE_UINT64",
            INT32_START), SequenceSavedModels.controlsEcho(DataType.INT64, DataType.INT32));
        TestSavedModels.model(root, "wrong_start", SequenceSavedModels.controlsConfig("wrong_start", "TYPE_INT64",
            "fp32_false_true: [ 0, 1 ]"), SequenceSavedModels.controlsEcho(DataType.INT64, DataType.INT32));
        TestSavedModels.model(root, "missing_control", SequenceSavedModels.controlsConfig("missing_control",
            "TYPE_INT64", INT32_START).replace("name: \"READY\"", "name: \"IS_READY\""),
            SequenceSavedModels.controlsEcho(DataType.INT64, DataType.INT32));
        TestSavedModels.model(root, "wrong_state", SequenceSavedModels.accumulatorConfig("wrong_state",
            "zero_data: true").replace("TYPE_INT32 dims: [ 1 ]\n", "TYPE_INT64 dims: [ 1 ]\n")
            .replace("data_type: TYPE_INT32 dims: [ 1 ] zero", "data_type: TYPE_INT64 dims: [ 1 ] zero"),
            SequenceSavedModels.accumulator());
        final Path corrupt = TestSavedModels.model(root, "corrupt", SequenceSavedModels.accumulatorConfig("corrupt",
            "zero_data: true"), SequenceSavedModels.accumulator());
        Files.writeString(corrupt.resolve("saved_model.pb"), "not a SavedModel, whatever its name says");
        core = InferenceCore.open(CoreOptions.builder().modelRepository(root).build());
    }

    @AfterAll
    void stop()
    {
        core.close();
    }

    private static String configName(final DataType type)
    {
        return type == DataType.BYTES ? "TYPE_STRING" : "TYPE_" + type.name();
    }

    private static InferenceRequest request(final InferenceRequest request, final DataType type, final Number value)
    {
        final MemorySegment data = Arena.ofAuto().allocate(4, 4);
        if (type == DataType.INT32)
        {
            data.set(ValueLayout.JAVA_INT, 0, value.intValue());
        }
        else
        {
            data.set(ValueLayout.JAVA_FLOAT, 0, value.floatValue());
        }
        return request.addInput("INPUT", type, new long[] {1, 1}, data);
    }

    private static InferenceResponse answer(final CompletableFuture<InferenceResponse> future) throws Exception
    {
        return future.get(60, TimeUnit.SECONDS);
    }

    @Test
    void theGraphIsFedTheConfiguredControlValuesAndEveryCorridType() throws Exception
    {
        // The ID as the CORRID's type holds it: the low 32 bits for the 32-bit types, unsigned or not.
        final long big = (1L << 63) + 5;
        final long wide = (5L << 32) + 4_000_000_000L;
        assertEquals(expected("9223372036854775813", "42"), twoSequences("controls_uint64", DataType.UINT64, big, 42));
        assertEquals(expected("-9223372036854775803", "42"), twoSequences("controls_int64", DataType.INT64, big, 42));
        assertEquals(expected("4000000000", "3"), twoSequences("controls_uint32", DataType.UINT32, wide, 3));
        assertEquals(expected("-294967296", "3"), twoSequences("controls_int32", DataType.INT32, wide, 3));
        assertEquals(expected("séquence-α", "b"), twoSequences("controls_bytes", DataType.BYTES, "séquence-α", "b"));
    }

    private static List<List<String>> expected(final String first, final String second)
    {
        return List.of(List.of("7 0.5 true " + first, "-1 0.5 true " + first, "-1 2.5 true " + first),
            List.of("7 0.5 true " + second, "-1 0.5 true " + second, "-1 2.5 true " + second));
    }

    /** Two sequences of three requests, each step's two requests at once (so they can share a batch). */
    private List<List<String>> twoSequences(final String model, final DataType corrid, final Object first,
        final Object second) throws Exception
    {
        return Sequences.play(core, model, List.of(first, second), 3,
            (request, step, sequence) -> request(request, DataType.FP32, step), response -> seen(response, corrid));
    }

    private static String seen(final InferenceResponse response, final DataType corrid)
    {
        final MemorySegment id = response.output("SEEN_CORRID").data();
        final String idText = switch (corrid)
        {
            case UINT64 -> Long.toUnsignedString(id.get(ValueLayout.JAVA_LONG, 0));
            case INT64 -> Long.toString(id.get(ValueLayout.JAVA_LONG, 0));
            case UINT32 -> Integer.toUnsignedString(id.get(ValueLayout.JAVA_INT, 0));
            case INT32 -> Integer.toString(id.get(ValueLayout.JAVA_INT, 0));
            default -> new String(id.asSlice(4, id.get(ValueLayout.JAVA_INT, 0)).toArray(ValueLayout.JAVA_BYTE),
                StandardCharsets.UTF_8);
        };
        return response.output("SEEN_START").data().get(ValueLayout.JAVA_INT, 0) + " "
            + response.output("SEEN_END").data().get(ValueLayout.JAVA_FLOAT, 0) + " "
            + response.output("SEEN_READY").data().get(ValueLayout.JAVA_BOOLEAN, 0) + " " + idText;
    }

    @Test
    void implicitStateCarriesEachSequencesTotalFromZerosOrADataFileAndStartResetsIt() throws Exception
    {
        for (int round = 0; round < 2; round++)
        {
            // The second round reuses both IDs: START brings the state back to its initial value.
            assertEquals(List.of(List.of(11, 18, 23, 26, 28, 28, 29), List.of(-11, -18, -23, -26, -28, -28, -29)),
                totals("total_from_zero"), "round " + round);
            assertEquals(List.of(List.of(111, 118, 123, 126, 128, 128, 129), List.of(89, 82, 77, 74, 72, 72, 71)),
                totals("total_from_file"), "round " + round);
        }
    }

    /** Sequences 1000 (VALUES) and 1001 (their negations), interleaved, every pair in flight at once. */
    private List<List<Integer>> totals(final String model) throws Exception
    {
        return Sequences.play(core, model, List.of(1000, 1001), VALUES.length,
            (request, step, sequence) -> request(request, DataType.INT32, sequence == 0 ? VALUES[step] : -VALUES[step]),
            response -> response.output("OUTPUT").data().get(ValueLayout.JAVA_INT, 0));
    }

    @Test
    void aStateMayGrowWhereItsDimsAreVariableAndNowhereElse() throws Exception
    {
        final List<Float> sums = Sequences.play(core, "grows", List.of(5), 4,
            (request, step, sequence) -> request(request, DataType.FP32, step + 1),
            response -> response.output("OUTPUT").data().get(ValueLayout.JAVA_FLOAT, 0)).getFirst();
        // The state is [0], [0, 1], [0, 1, 2], ...: the whole of it is carried, whatever its length.
        assertEquals(List.of(1f, 3f, 6f, 10f), sums);
        try (InferenceResponse response = answer(core.submit(request(new InferenceRequest("must_not_grow")
            .sequence(6, true, false), DataType.FP32, 1))))
        {
            assertFalse(response.isOk());
            assertTrue(response.error().getMessage().endsWith("model 'must_not_grow': state output 'OUTPUT_STATE' of"
                + " implicit state 'INPUT_STATE' has shape [1,2], but the state's dims are [1] after the batch"
                + " dimension: a state keeps its configured shape from request to request, except in dimensions"
                + " given as -1"), response.error().getMessage());
        }
        try (InferenceResponse response = answer(core.submit(request(new InferenceRequest("grows")
            .sequence(7, true, true), DataType.FP32, 2))).throwIfError())
        {
            assertEquals(2f, response.output("OUTPUT").data().get(ValueLayout.JAVA_FLOAT, 0));
        }
    }

    @Test
    void badSequenceModelsFailWithTheirReasonAndTheOthersServe() throws Exception
    {
        final Map<String, ModelIndexEntry> index = core.repositoryIndex(false).stream()
            .collect(Collectors.toMap(ModelIndexEntry::name, entry -> entry));
        assertReason(index, "wrong_corrid", "unable to load model 'wrong_corrid', sequence control 'CORRID': the model"
            + " expects TYPE_INT64 but the model configuration specifies data-type TYPE_UINT64"
            + " (CONTROL_SEQUENCE_CORRID)");
        assertReason(index, "wrong_start", "unable to load model 'wrong_start', sequence control 'START': the model"
            + " expects TYPE_INT32 but the model configuration specifies data-type TYPE_FP32"
            + " (CONTROL_SEQUENCE_START)");
        assertReason(index, "missing_control", "configuration specified sequence control 'IS_READY', but model does"
            + " not provide that input (the signature's inputs are CORRID, END, INPUT, READY, START)");
        assertReason(index, "wrong_state", "unable to load model 'wrong_state', configuration expects datatype"
            + " TYPE_INT64 for state input 'INPUT_STATE', model provides TYPE_INT32");
        assertReason(index, "corrupt", "is not a SavedModel protocol buffer");
        assertEquals(List.of(List.of(11, 18, 23, 26, 28, 28, 29), List.of(-11, -18, -23, -26, -28, -28, -29)),
            totals("total_from_zero"));
    }

    private static void assertReason(final Map<String, ModelIndexEntry> index, final String model,
        final String reason)
    {
        assertEquals("UNAVAILABLE", index.get(model).state(), model + ": " + index.get(model));
        assertTrue(index.get(model).reason().contains(reason), index.get(model).reason());
    }
}
