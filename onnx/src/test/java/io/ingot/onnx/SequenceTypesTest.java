package io.ingot.onnx;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.onnx.writer.Dim;
import io.ingot.onnx.writer.OnnxModelBuilder;
import io.ingot.onnx.writer.proto.TensorProto;
import io.ingot.tensor.DataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sequence batcher's tensors through the ONNX Runtime backend, on models written here with Ingot's ONNX writer:
 * a CORRID control of every data type Triton allows (TYPE_UINT64 with an ID that needs all 64 bits, TYPE_INT64,
 * TYPE_UINT32, TYPE_INT32, TYPE_STRING), START/END/READY controls in each of their three encodings
 * ({@code int32_false_true}, {@code fp32_false_true}, {@code bool_false_true}), and implicit state of every data type
 * (zeros on START, strings included; an {@code initial_state} data file), each model echoing what it was given. Bad
 * input: a state whose shape changes between requests, and a CORRID of the wrong kind, each fail with a message
 * naming the model, while the other models keep serving. (Sequences may idle for a minute: Triton's default of one
 * second between two requests of a sequence is too short for a loaded build machine.)
 */
class SequenceTypesTest
{
    private static final ValueLayout.OfInt LENGTH = BytesLayout.LENGTH;
    private static final List<DataType> CORRID_TYPES = List.of(DataType.UINT64, DataType.INT64, DataType.UINT32,
        DataType.INT32, DataType.BYTES);

    @TempDir
    static Path repository;

    private static InferenceCore core;

    @BeforeAll
    static void serve() throws IOException
    {
        for (final DataType type : CORRID_TYPES)
        {
            corridModel(type);
        }
        for (final DataType type : DataType.values())
        {
            stateModel(type);
        }
        initialStateModel();
        growingStateModel();
        core = InferenceCore.open(CoreOptions.builder().modelRepository(repository).build());
    }

    @AfterAll
    static void stop() throws InterruptedException
    {
        if (core != null)
        {
            ExampleRepository.close(core);
        }
    }

    private static String lower(final DataType type)
    {
        return type.name().toLowerCase(Locale.ROOT);
    }

    private static TensorProto.DataType onnx(final DataType type)
    {
        return TensorProto.DataType.forNumber(OnnxTypes.toOnnx(type));
    }

    /** INPUT, START (INT32), END (FP32), READY (BOOL), CORRID (type) → OUTPUT and an echo of each control. */
    private static void corridModel(final DataType type) throws IOException
    {
        final String name = "corrid_" + lower(type);
        final OnnxModelBuilder model = new OnnxModelBuilder(name);
        model.input("INPUT", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(1));
        model.input("START", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(1));
        model.input("END", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.of(1));
        model.input("READY", TensorProto.DataType.BOOL, Dim.named("batch"), Dim.of(1));
        model.input("CORRID", onnx(type), Dim.named("batch"), Dim.of(1));
        for (final String[] echo : new String[][] {{"INPUT", "OUTPUT"}, {"START", "START_ECHO"}, {"END", "END_ECHO"},
            {"READY", "READY_ECHO"}, {"CORRID", "CORRID_ECHO"}})
        {
            final TensorProto.DataType t = switch (echo[0])
            {
                case "END" -> TensorProto.DataType.FLOAT;
                case "READY" -> TensorProto.DataType.BOOL;
                case "CORRID" -> onnx(type);
                default -> TensorProto.DataType.INT32;
            };
            model.output(echo[1], t, Dim.named("batch"), Dim.of(1));
            model.node("Identity", List.of(echo[0]), echo[1]);
        }
        write(name, model, """
            name: "%s" backend: "onnxruntime" max_batch_size: 4
            sequence_batching {
              max_sequence_idle_microseconds: 60000000
              oldest { max_candidate_sequences: 4 }
              control_input [
                { name: "START" control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] }] },
                { name: "END" control [{ kind: CONTROL_SEQUENCE_END fp32_false_true: [ 0.5, 2.5 ] }] },
                { name: "READY" control [{ kind: CONTROL_SEQUENCE_READY bool_false_true: [ false, true ] }] },
                { name: "CORRID" control [{ kind: CONTROL_SEQUENCE_CORRID data_type: %s }] } ] }
            input [{ name: "INPUT" data_type: TYPE_INT32 dims: [ 1 ] }]
            output [{ name: "OUTPUT" data_type: TYPE_INT32 dims: [ 1 ] },
              { name: "START_ECHO" data_type: TYPE_INT32 dims: [ 1 ] },
              { name: "END_ECHO" data_type: TYPE_FP32 dims: [ 1 ] },
              { name: "READY_ECHO" data_type: TYPE_BOOL dims: [ 1 ] },
              { name: "CORRID_ECHO" data_type: %s dims: [ 1 ] }]
            """.formatted(name, OnnxTypes.configName(type), OnnxTypes.configName(type)));
    }

    /** OUTPUT = the state (the previous request's INPUT), OUTPUT_STATE = INPUT: identity only, for any type. */
    private static void stateModel(final DataType type) throws IOException
    {
        final String name = "state_" + lower(type);
        final OnnxModelBuilder model = new OnnxModelBuilder(name);
        model.input("INPUT", onnx(type), Dim.named("batch"), Dim.of(2));
        model.input("INPUT_STATE", onnx(type), Dim.named("batch"), Dim.of(2));
        model.input("START", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(1));
        model.output("OUTPUT", onnx(type), Dim.named("batch"), Dim.of(2));
        model.output("OUTPUT_STATE", onnx(type), Dim.named("batch"), Dim.of(2));
        model.output("STARTED", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(1));
        model.node("Identity", List.of("INPUT_STATE"), "OUTPUT");
        model.node("Identity", List.of("INPUT"), "OUTPUT_STATE");
        model.node("Identity", List.of("START"), "STARTED");
        write(name, model, stateConfig(name, OnnxTypes.configName(type), ""));
    }

    private static String stateConfig(final String name, final String type, final String initial)
    {
        return """
            name: "%s" backend: "onnxruntime" max_batch_size: 4
            sequence_batching {
              max_sequence_idle_microseconds: 60000000
              control_input [{ name: "START" control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] }] }]
              state [{ input_name: "INPUT_STATE" output_name: "OUTPUT_STATE" data_type: %s dims: [ 2 ] %s }] }
            input [{ name: "INPUT" data_type: %s dims: [ 2 ] }]
            output [{ name: "OUTPUT" data_type: %s dims: [ 2 ] }, { name: "STARTED" data_type: TYPE_INT32 dims: [ 1 ] }]
            """.formatted(name, type, initial, type, type);
    }

    /** The INT32 state model, starting from the values of {@code initial_state/start.bin}: 40 and 2. */
    private static void initialStateModel() throws IOException
    {
        final String name = "state_from_file";
        final OnnxModelBuilder model = new OnnxModelBuilder(name);
        model.input("INPUT", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(2));
        model.input("INPUT_STATE", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(2));
        model.input("START", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(1));
        model.output("OUTPUT", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(2));
        model.output("OUTPUT_STATE", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(2));
        model.output("STARTED", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(1));
        model.node("Identity", List.of("INPUT_STATE"), "OUTPUT");
        model.node("Identity", List.of("INPUT"), "OUTPUT_STATE");
        model.node("Identity", List.of("START"), "STARTED");
        write(name, model, stateConfig(name, "TYPE_INT32",
            "initial_state { name: \"start\" data_type: TYPE_INT32 dims: [ 2 ] data_file: \"start.bin\" }"));
        final Path file = repository.resolve(name).resolve("initial_state").resolve("start.bin");
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[] {40, 0, 0, 0, 2, 0, 0, 0});
    }

    /** OUTPUT_STATE = concat(INPUT_STATE, INPUT): the state grows by 2 each request, its configured dims are [2]. */
    private static void growingStateModel() throws IOException
    {
        final String name = "growing_state";
        final OnnxModelBuilder model = new OnnxModelBuilder(name);
        model.input("INPUT", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(2));
        model.input("INPUT_STATE", TensorProto.DataType.INT32, Dim.named("batch"), Dim.named("s"));
        model.input("START", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(1));
        model.output("OUTPUT", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(2));
        model.output("OUTPUT_STATE", TensorProto.DataType.INT32, Dim.named("batch"), Dim.named("grown"));
        model.output("STARTED", TensorProto.DataType.INT32, Dim.named("batch"), Dim.of(1));
        model.node("Identity", List.of("INPUT"), "OUTPUT");
        model.node("Concat", List.of("INPUT_STATE", "INPUT"), "OUTPUT_STATE",
            io.ingot.onnx.writer.Attributes.intValue("axis", 1));
        model.node("Identity", List.of("START"), "STARTED");
        write(name, model, stateConfig(name, "TYPE_INT32", ""));
    }

    private static void write(final String name, final OnnxModelBuilder model, final String config)
        throws IOException
    {
        OnnxModelBuilder.write(model.build(), repository.resolve(name).resolve("1").resolve("model.onnx"));
        Files.writeString(repository.resolve(name).resolve("config.pbtxt"), config);
    }

    private static InferenceResponse await(final CompletableFuture<InferenceResponse> future) throws Exception
    {
        return future.get(60, TimeUnit.SECONDS);
    }

    private static byte[] bytes(final InferenceResponse response, final String output)
    {
        assertTrue(response.isOk(), () -> String.valueOf(response.error()));
        return response.output(output).data().toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void everyCorridTypeAndControlEncodingReachesTheModel() throws Exception
    {
        for (final DataType type : CORRID_TYPES)
        {
            final String model = "corrid_" + lower(type);
            // IDs that need every bit the type has: the top bit of 64, all 32 bits, a string of non-ASCII text.
            final long id = switch (type)
            {
                case UINT64, INT64 -> (1L << 63) + 7;
                case UINT32 -> 0xFFFF_FFF0L;
                default -> 0x7FFF_FFF0L;
            };
            final String key = "séquence-" + type;
            for (int i = 0; i < 3; i++)
            {
                final MemorySegment input = Arena.ofAuto().allocateFrom(ValueLayout.JAVA_INT, 10 + i);
                final InferenceRequest request = new InferenceRequest(model)
                    .addInput("INPUT", DataType.INT32, new long[] {1, 1}, input);
                if (type == DataType.BYTES)
                {
                    request.sequence(key, i == 0, i == 2);
                }
                else
                {
                    request.sequence(id, i == 0, i == 2);
                }
                try (InferenceResponse response = await(core.submit(request)))
                {
                    final String where = model + " request " + i;
                    assertEquals(10 + i, response(response, "OUTPUT").get(ValueLayout.JAVA_INT, 0), where);
                    assertEquals(i == 0 ? 1 : 0, response(response, "START_ECHO").get(ValueLayout.JAVA_INT, 0), where);
                    assertEquals(i == 2 ? 2.5f : 0.5f, response(response, "END_ECHO").get(ValueLayout.JAVA_FLOAT, 0),
                        where);
                    assertEquals(1, response(response, "READY_ECHO").get(ValueLayout.JAVA_BYTE, 0), where);
                    final byte[] echoed = bytes(response, "CORRID_ECHO");
                    if (type == DataType.BYTES)
                    {
                        final byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
                        assertEquals(utf8.length, MemorySegment.ofArray(echoed).get(LENGTH, 0), where);
                        assertArrayEquals(utf8, java.util.Arrays.copyOfRange(echoed, 4, echoed.length), where);
                    }
                    else
                    {
                        final MemorySegment value = MemorySegment.ofArray(echoed);
                        assertEquals(type.byteSize(), echoed.length, where);
                        assertEquals(id, type.byteSize() == 8 ? value.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)
                            : Integer.toUnsignedLong(value.get(ValueLayout.JAVA_INT_UNALIGNED, 0)), where);
                    }
                }
            }
        }
    }

    private static MemorySegment response(final InferenceResponse response, final String output)
    {
        assertTrue(response.isOk(), () -> String.valueOf(response.error()));
        return response.output(output).data();
    }

    @Test
    void implicitStateOfEveryTypeIsCarriedPerSequenceAndZeroedOnStart() throws Exception
    {
        for (final DataType type : DataType.values())
        {
            final String model = "state_" + lower(type);
            final List<byte[]> first = new ArrayList<>();
            final List<byte[]> second = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                first.add(value(type, i));
                second.add(value(type, 10 + i));
            }
            // Two sequences interleaved, both requests in flight together: each gets its own previous INPUT back.
            for (int i = 0; i < 3; i++)
            {
                final CompletableFuture<InferenceResponse> a = core.submit(stateRequest(model, type, 501, i,
                    first.get(i)));
                final CompletableFuture<InferenceResponse> b = core.submit(stateRequest(model, type, 502, i,
                    second.get(i)));
                try (InferenceResponse ra = await(a); InferenceResponse rb = await(b))
                {
                    final byte[] zeros = type == DataType.BYTES ? new byte[8] : new byte[2 * type.byteSize()];
                    assertArrayEquals(i == 0 ? zeros : first.get(i - 1), bytes(ra, "OUTPUT"), model + " 501/" + i);
                    assertArrayEquals(i == 0 ? zeros : second.get(i - 1), bytes(rb, "OUTPUT"), model + " 502/" + i);
                }
            }
        }
    }

    @Test
    void anInitialStateFileIsWhatASequenceStartsFrom() throws Exception
    {
        final byte[] sent = {1, 0, 0, 0, 2, 0, 0, 0};
        try (InferenceResponse response = await(core.submit(stateRequest("state_from_file", DataType.INT32, 9, 0,
            sent))))
        {
            assertArrayEquals(new byte[] {40, 0, 0, 0, 2, 0, 0, 0}, bytes(response, "OUTPUT"));
        }
    }

    @Test
    void aStateWhoseShapeChangesIsRefusedNamingModelStateAndShapesWhileOthersServe() throws Exception
    {
        final byte[] sent = {1, 0, 0, 0, 2, 0, 0, 0};
        try (InferenceResponse response = await(core.submit(stateRequest("growing_state", DataType.INT32, 77, 0,
            sent))))
        {
            assertTrue(!response.isOk());
            assertTrue(response.error().getMessage().contains("model 'growing_state': state output 'OUTPUT_STATE'"
                + " of implicit state 'INPUT_STATE' has shape [4] (without the batch dimension), but"
                + " sequence_batching.state dims are [2]"), response.error().getMessage());
        }
        try (InferenceResponse response = await(core.submit(stateRequest("state_int32", DataType.INT32, 78, 0,
            sent))))
        {
            assertTrue(response.isOk(), () -> String.valueOf(response.error()));
        }
    }

    @Test
    void aCorrelationIdOfTheWrongKindIsRefusedNamingTheControlAndModel() throws Exception
    {
        final MemorySegment input = Arena.ofAuto().allocateFrom(ValueLayout.JAVA_INT, 1);
        final InferenceRequest text = new InferenceRequest("corrid_uint64")
            .addInput("INPUT", DataType.INT32, new long[] {1, 1}, input).sequence("abc", true, true);
        // Refused at the edge, synchronously, before anything is queued.
        final InferenceException refused = assertThrows(InferenceException.class, () -> core.submit(text));
        assertEquals("sequence batching control 'CORRID' data-type is 'BYTES', but model 'corrid_uint64' expects"
            + " 'UINT64'", refused.getMessage());
        final InferenceRequest number = new InferenceRequest("corrid_bytes")
            .addInput("INPUT", DataType.INT32, new long[] {1, 1}, input).sequence(5, true, true);
        assertEquals("sequence batching control 'CORRID' data-type is 'UINT64', but model 'corrid_bytes' expects"
            + " 'BYTES'", assertThrows(InferenceException.class, () -> core.submit(number)).getMessage());
    }

    private static InferenceRequest stateRequest(final String model, final DataType type, final long id,
        final int index, final byte[] data)
    {
        final MemorySegment input = Arena.ofAuto().allocate(data.length).copyFrom(MemorySegment.ofArray(data));
        return new InferenceRequest(model).addInput("INPUT", type, new long[] {1, 2}, input)
            .sequence(id, index == 0, index == 2);
    }

    /** @return two elements of {@code type}, distinct per {@code seed} (strings: arbitrary bytes, NUL included) */
    private static byte[] value(final DataType type, final int seed)
    {
        if (type == DataType.BYTES)
        {
            final MemorySegment encoded = MemorySegment.ofArray(new byte[4 + 2 + 4 + 3]);
            encoded.set(LENGTH, 0, 2);
            encoded.set(ValueLayout.JAVA_BYTE, 4, (byte) seed);
            encoded.set(ValueLayout.JAVA_BYTE, 5, (byte) 0xff);
            encoded.set(LENGTH, 6, 3);
            encoded.set(ValueLayout.JAVA_BYTE, 10, (byte) 0);
            encoded.set(ValueLayout.JAVA_BYTE, 11, (byte) 'x');
            encoded.set(ValueLayout.JAVA_BYTE, 12, (byte) seed);
            return encoded.toArray(ValueLayout.JAVA_BYTE);
        }
        final byte[] bytes = new byte[2 * type.byteSize()];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte) (seed * 31 + i * 7 + 1);
        }
        if (type == DataType.BOOL)
        {
            bytes[0] = (byte) (seed % 2);
            bytes[1] = (byte) 1;
        }
        return bytes;
    }
}
