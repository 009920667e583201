package io.ingot.pytorch;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.pytorch.script.ScriptModule;
import io.ingot.pytorch.script.TorchScriptWriter;
import io.ingot.tensor.DataType;
import io.ingot.testing.Sequences;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sequence models written by the module's TorchScript writer, served by a real core: what {@code forward} is given
 * for the START, END, READY and CORRID controls (each CORRID type libtorch takes), implicit state carried from request
 * to request and initialised at START (zeros, or a data file), a state whose shape may grow (dims {@code -1}) or must
 * not, and bad sequence models failing alone.
 */
class SequenceServingTest
{
    private static final int[] VALUES = {11, 7, 5, 3, 2, 0, 1};

    @TempDir
    Path repository;

    /** {@code forward} returns the controls it was given, as outputs. */
    private static ScriptModule controlsEcho(final boolean stringId)
    {
        return ScriptModule.builder("ControlsEcho").argument("x", "Tensor").argument("start", "Tensor")
            .argument("end", "Tensor").argument("ready", "Tensor").argument("corrid", stringId ? "List[str]" : "Tensor")
            .returns("Tuple[Tensor, Tensor, Tensor, " + (stringId ? "List[str]" : "Tensor") + "]")
            .body("return (start, end, ready, corrid)").build();
    }

    private static String controlsConfig(final String name, final String corrid)
    {
        final boolean strings = corrid.equals("TYPE_STRING");
        return """
            name: "%s" backend: "pytorch" max_batch_size: 4
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [ 1 ] }
            output { name: "SEEN_START__0" data_type: TYPE_INT32 dims: [ 1 ] }
            output { name: "SEEN_END__1" data_type: TYPE_FP32 dims: [ 1 ] }
            output { name: "SEEN_READY__2" data_type: TYPE_BOOL dims: [ 1 ] }
            output { name: "SEEN_CORRID__3" data_type: %s dims: [ 1 ] %s }
            sequence_batching {
              max_sequence_idle_microseconds: 60000000  # a busy test machine may pause beyond the default 1 s
              direct { }
              control_input [
                { name: "START__1" control { kind: CONTROL_SEQUENCE_START int32_false_true: [ -1, 7 ] } },
                { name: "END__2" control { kind: CONTROL_SEQUENCE_END fp32_false_true: [ 0.5, 2.5 ] } },
                { name: "READY__3" control { kind: CONTROL_SEQUENCE_READY bool_false_true: [ false, true ] } },
                { name: "CORRID__4" control { kind: CONTROL_SEQUENCE_CORRID data_type: %s } } ]
            }
            instance_group { kind: KIND_CPU count: 1 }
            """.formatted(name, corrid, strings ? "reshape { shape: [ ] }" : "", corrid);
    }

    /** {@code forward(x, state)}: the running total, both as the output and as the next state. */
    private static ScriptModule accumulator()
    {
        return ScriptModule.builder("Accumulator").argument("x", "Tensor").argument("state", "Tensor")
            .returns("Tuple[Tensor, Tensor]").body("total = torch.add(state, x)", "return (total, total)").build();
    }

    private static String accumulatorConfig(final String name, final String initialState)
    {
        return """
            name: "%s" backend: "pytorch" max_batch_size: 2
            input { name: "INPUT__0" data_type: TYPE_INT32 dims: [ 1 ] }
            output { name: "OUTPUT__0" data_type: TYPE_INT32 dims: [ 1 ] }
            sequence_batching {
              max_sequence_idle_microseconds: 60000000  # a busy test machine may pause beyond the default 1 s
              direct { }
              state { input_name: "STATE_IN__1" output_name: "STATE_OUT__1" data_type: TYPE_INT32 dims: [ 1 ]
                initial_state { name: "initial" data_type: TYPE_INT32 dims: [ 1 ] %s } }
            }
            instance_group { kind: KIND_CPU count: 1 }
            """.formatted(name, initialState);
    }

    /** {@code forward(x, state)}: the state grows by x each request; the output is the sum of all of it. */
    private static ScriptModule growing()
    {
        return ScriptModule.builder("Growing").argument("x", "Tensor").argument("state", "Tensor")
            .returns("Tuple[Tensor, Tensor]")
            .body("grown = torch.cat([state, x], 1)", "return (torch.sum(grown, [1], True), grown)").build();
    }

    private static String growingConfig(final String name, final String dims)
    {
        return """
            name: "%s" backend: "pytorch" max_batch_size: 1
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [ 1 ] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 1 ] }
            sequence_batching {
              max_sequence_idle_microseconds: 60000000  # a busy test machine may pause beyond the default 1 s
              state { input_name: "STATE_IN__1" output_name: "STATE_OUT__1" data_type: TYPE_FP32 dims: [ %s ]
                initial_state { name: "initial" data_type: TYPE_FP32 dims: [ 1 ] zero_data: true } }
            }
            instance_group { kind: KIND_CPU count: 1 }
            """.formatted(name, dims);
    }

    private Path model(final String name, final ScriptModule module, final String config) throws Exception
    {
        final Path directory = repository.resolve(name);
        TorchScriptWriter.write(module, directory.resolve("1").resolve("model.pt"));
        Files.writeString(directory.resolve("config.pbtxt"), config);
        return directory;
    }

    private InferenceCore open()
    {
        return InferenceCore.open(CoreOptions.builder().modelRepository(repository).build());
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
        return request.addInput("INPUT__0", type, new long[] {1, 1}, data);
    }

    private static InferenceResponse answer(final CompletableFuture<InferenceResponse> future) throws Exception
    {
        return future.get(60, TimeUnit.SECONDS);
    }

    /** What forward saw for one request: START, END, READY and the CORRID, as text. */
    private static String seen(final InferenceResponse response, final DataType corrid)
    {
        final MemorySegment id = response.output("SEEN_CORRID__3").data();
        final String idText = switch (corrid)
        {
            case INT64 -> Long.toString(id.get(ValueLayout.JAVA_LONG, 0));
            case INT32 -> Integer.toString(id.get(ValueLayout.JAVA_INT, 0));
            default -> new String(id.asSlice(4, id.get(ValueLayout.JAVA_INT, 0)).toArray(ValueLayout.JAVA_BYTE),
                StandardCharsets.UTF_8);
        };
        return response.output("SEEN_START__0").data().get(ValueLayout.JAVA_INT, 0) + " "
            + response.output("SEEN_END__1").data().get(ValueLayout.JAVA_FLOAT, 0) + " "
            + response.output("SEEN_READY__2").data().get(ValueLayout.JAVA_BOOLEAN, 0) + " " + idText;
    }

    @Test
    void forwardSeesTheConfiguredControlValuesAndEachCorridType() throws Exception
    {
        model("controls_int64", controlsEcho(false), controlsConfig("controls_int64", "TYPE_INT64"));
        model("controls_int32", controlsEcho(false), controlsConfig("controls_int32", "TYPE_INT32"));
        model("controls_string", controlsEcho(true), controlsConfig("controls_string", "TYPE_STRING"));
        try (InferenceCore core = open())
        {
            // Two sequences at once, so that their requests can share a batch (direct: one slot each).
            assertEquals(List.of(List.of("7 0.5 true 1099511627779", "-1 0.5 true 1099511627779",
                "-1 2.5 true 1099511627779"), List.of("7 0.5 true 42", "-1 0.5 true 42", "-1 2.5 true 42")),
                twoSequences(core, "controls_int64", DataType.INT64, (1L << 40) + 3, 42));
            // An INT32 CORRID holds the ID's low 32 bits, as Triton truncates it.
            assertEquals(List.of(List.of("7 0.5 true 70000", "-1 0.5 true 70000", "-1 2.5 true 70000"),
                List.of("7 0.5 true 3", "-1 0.5 true 3", "-1 2.5 true 3")),
                twoSequences(core, "controls_int32", DataType.INT32, (5L << 32) + 70_000, 3));
            assertEquals(List.of(List.of("7 0.5 true séquence-α", "-1 0.5 true séquence-α", "-1 2.5 true séquence-α"),
                List.of("7 0.5 true b", "-1 0.5 true b", "-1 2.5 true b")),
                twoSequences(core, "controls_string", DataType.BYTES, "séquence-α", "b"));
        }
    }

    /** Two sequences of three requests, each step's two requests at once (so they can share a batch). */
    private static List<List<String>> twoSequences(final InferenceCore core, final String model,
        final DataType corrid, final Object first, final Object second) throws Exception
    {
        return Sequences.play(core, model, List.of(first, second), 3,
            (request, step, sequence) -> request(request, DataType.FP32, step), response -> seen(response, corrid));
    }

    @Test
    void implicitStateCarriesEachSequencesTotalFromZerosOrADataFileAndStartResetsIt() throws Exception
    {
        model("total_from_zero", accumulator(), accumulatorConfig("total_from_zero", "zero_data: true"));
        final Path fromFile = model("total_from_file", accumulator(),
            accumulatorConfig("total_from_file", "data_file: \"start_at_100\""));
        Files.createDirectories(fromFile.resolve("initial_state"));
        Files.write(fromFile.resolve("initial_state").resolve("start_at_100"),
            ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(100).array());
        try (InferenceCore core = open())
        {
            for (int round = 0; round < 2; round++)
            {
                // The second round reuses both IDs: START brings the state back to its initial value.
                assertEquals(List.of(List.of(11, 18, 23, 26, 28, 28, 29), List.of(-11, -18, -23, -26, -28, -28, -29)),
                    totals(core, "total_from_zero"), "round " + round);
                assertEquals(List.of(List.of(111, 118, 123, 126, 128, 128, 129),
                    List.of(89, 82, 77, 74, 72, 72, 71)), totals(core, "total_from_file"), "round " + round);
            }
        }
    }

    /** Sequences 1000 (VALUES) and 1001 (their negations), interleaved, every pair in flight at once. */
    private static List<List<Integer>> totals(final InferenceCore core, final String model) throws Exception
    {
        return Sequences.play(core, model, List.of(1000, 1001), VALUES.length,
            (request, step, sequence) -> request(request, DataType.INT32, sequence == 0 ? VALUES[step] : -VALUES[step]),
            response -> response.output("OUTPUT__0").data().get(ValueLayout.JAVA_INT, 0));
    }

    @Test
    void aClientSeesTheStateOutputWhenTheConfigurationListsIt() throws Exception
    {
        // Triton's implicit_state_management.md: listing the state output as an output lets clients ask for it.
        model("total_shown", accumulator(), accumulatorConfig("total_shown", "zero_data: true").replace(
            "output {", "output { name: \"STATE_OUT__1\" data_type: TYPE_INT32 dims: [ 1 ] }\noutput {"));
        try (InferenceCore core = open())
        {
            final List<Integer> states = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                try (InferenceResponse response = answer(core.submit(request(new InferenceRequest("total_shown")
                    .sequence(12, i == 0, i == 2), DataType.INT32, VALUES[i]))).throwIfError())
                {
                    states.add(response.output("STATE_OUT__1").data().get(ValueLayout.JAVA_INT, 0));
                    assertEquals(states.getLast(), response.output("OUTPUT__0").data().get(ValueLayout.JAVA_INT, 0));
                }
            }
            assertEquals(List.of(11, 18, 23), states);
        }
    }

    @Test
    void aStateMayGrowWhereItsDimsAreVariableAndNowhereElse() throws Exception
    {
        model("grows", growing(), growingConfig("grows", "-1"));
        model("must_not_grow", growing(), growingConfig("must_not_grow", "1"));
        try (InferenceCore core = open())
        {
            final List<Float> sums = Sequences.play(core, "grows", List.of(5), 4,
                (request, step, sequence) -> request(request, DataType.FP32, step + 1),
                response -> response.output("OUTPUT__0").data().get(ValueLayout.JAVA_FLOAT, 0)).getFirst();
            // The state is [0], [0, 1], [0, 1, 2], ...: the whole of it is carried, whatever its length.
            assertEquals(List.of(1f, 3f, 6f, 10f), sums);

            try (InferenceResponse response = answer(core.submit(request(new InferenceRequest("must_not_grow")
                .sequence(6, true, false), DataType.FP32, 1))))
            {
                assertFalse(response.isOk());
                assertTrue(response.error().getMessage().endsWith("model 'must_not_grow': state output"
                    + " 'STATE_OUT__1' of implicit state 'STATE_IN__1' has shape [1,2], but the state's dims are [1]"
                    + " after the batch dimension: a state keeps its configured shape from request to request, except"
                    + " in dimensions given as -1"), response.error().getMessage());
            }
            // The failed batch left the model serving.
            try (InferenceResponse response = answer(core.submit(request(new InferenceRequest("grows")
                .sequence(7, true, true), DataType.FP32, 2))).throwIfError())
            {
                assertEquals(2f, response.output("OUTPUT__0").data().get(ValueLayout.JAVA_FLOAT, 0));
            }
        }
    }

    @Test
    void badSequenceModelsFailWithTheirReasonAndTheOthersServe() throws Exception
    {
        model("good", accumulator(), accumulatorConfig("good", "zero_data: true"));
        model("good_ids", controlsEcho(false), controlsConfig("good_ids", "TYPE_INT64"));
        model("unsigned_corrid", controlsEcho(false), controlsConfig("unsigned_corrid", "TYPE_UINT64"));
        final Path corrupt = model("corrupt", accumulator(), accumulatorConfig("corrupt", "zero_data: true"));
        final Path file = corrupt.resolve("1").resolve("model.pt");
        final byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 3));
        model("string_for_tensor", controlsEcho(false), controlsConfig("string_for_tensor", "TYPE_STRING"));
        try (InferenceCore core = open())
        {
            final Map<String, ModelIndexEntry> index = core.repositoryIndex(false).stream()
                .collect(Collectors.toMap(ModelIndexEntry::name, entry -> entry));
            assertEquals("READY", index.get("good").state(), index.toString());
            assertReason(index, "unsigned_corrid", "input 'CORRID__4' type 'TYPE_UINT64' is not supported by"
                + " PyTorch. (model 'unsigned_corrid': libtorch has no TYPE_UINT64 tensors");
            assertReason(index, "corrupt", "model 'corrupt' version 1: '");
            assertReason(index, "string_for_tensor", "input 'CORRID__4' is TYPE_STRING in the configuration, but"
                + " forward's argument 'corrid' is Tensor");

            // A string ID for a numeric CORRID: refused, naming the control and the type the model expects.
            assertEquals("sequence batching control 'CORRID__4' data-type is 'BYTES', but model 'good_ids' expects"
                + " 'INT64'", assertThrows(InferenceException.class, () -> core.submit(request(
                    new InferenceRequest("good_ids").sequence("text-id", true, true), DataType.FP32, 1)))
                    .getMessage());
            assertEquals(List.of(List.of("7 0.5 true 8", "-1 0.5 true 8", "-1 2.5 true 8"),
                List.of("7 0.5 true 9", "-1 0.5 true 9", "-1 2.5 true 9")),
                twoSequences(core, "good_ids", DataType.INT64, 8, 9));
            assertEquals(List.of(List.of(11, 18, 23, 26, 28, 28, 29), List.of(-11, -18, -23, -26, -28, -28, -29)),
                totals(core, "good"));
        }
    }

    private static void assertReason(final Map<String, ModelIndexEntry> index, final String model,
        final String reason)
    {
        assertEquals("UNAVAILABLE", index.get(model).state(), model);
        assertTrue(index.get(model).reason().contains(reason), index.get(model).reason());
    }
}
