package io.ingot.python;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelStatistics;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BYTES tensors both ways, in batches of many requests: each request's strings reach {@code execute} as a numpy
 * object array of its own, and each gets its own strings back (upper-cased) with their byte lengths.
 */
class PythonBytesTest
{
    private static final String MODEL = """
        import numpy as np
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            def execute(self, requests):
                responses = []
                for request in requests:
                    words = pb_utils.get_input_tensor_by_name(request, "TEXT").as_numpy()
                    assert words.dtype == np.object_, words.dtype
                    upper = np.array([w.decode("utf-8").upper().encode("utf-8") for w in words.ravel()],
                                     dtype=np.object_).reshape(words.shape)
                    lengths = np.array([len(w) for w in words.ravel()], dtype=np.int32).reshape(words.shape)
                    responses.append(pb_utils.InferenceResponse(
                        [pb_utils.Tensor("UPPER", upper), pb_utils.Tensor("LENGTHS", lengths)]))
                return responses
        """;

    private static final String CONFIG = """
        name: "strings"
        backend: "python"
        max_batch_size: 8
        input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 2 ] } ]
        output [
          { name: "UPPER" data_type: TYPE_STRING dims: [ 2 ] },
          { name: "LENGTHS" data_type: TYPE_INT32 dims: [ 2 ] }
        ]
        dynamic_batching { max_queue_delay_microseconds: 20000 }
        """;

    @TempDir
    static Path repository;
    private static InferenceCore core;

    @BeforeAll
    static void open() throws Exception
    {
        PythonTests.requirePython(PythonBytesTest.class);
        PythonTests.writeModel(repository, "strings", CONFIG, MODEL);
        core = PythonTests.open(repository, "strings");
    }

    @AfterAll
    static void close()
    {
        PythonTests.close(core);
    }

    @Test
    void eachRequestOfABatchGetsItsOwnStringsBack()
    {
        final List<String[]> sent = new ArrayList<>();
        final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
        for (int r = 0; r < 40; r++)
        {
            final String[] words = {"request " + r + " " + "x".repeat(r * 7), r % 3 == 0 ? "" : "grüße-" + r};
            sent.add(words);
            futures.add(core.submit(request(words)));
        }
        for (int r = 0; r < futures.size(); r++)
        {
            try (InferenceResponse response = TestModels.await(futures.get(r)).throwIfError())
            {
                final String[] words = sent.get(r);
                assertArrayEquals(new long[] {1, 2}, response.output("UPPER").shape());
                assertArrayEquals(new String[] {words[0].toUpperCase(Locale.ROOT), words[1].toUpperCase(Locale.ROOT)},
                    strings(response.output("UPPER").data(), 2), "request " + r);
                assertArrayEquals(new int[] {utf8(words[0]).length, utf8(words[1]).length},
                    response.output("LENGTHS").data().toArray(ValueLayout.JAVA_INT), "request " + r);
            }
        }
        final ModelStatistics stats = core.modelStatistics("strings", -1).getFirst();
        assertTrue(stats.executionCount() < stats.inferenceCount(), "40 requests at once are batched: "
            + stats.executionCount() + " executions for " + stats.inferenceCount() + " inferences");
    }

    @Test
    void aRequestOfSeveralRowsKeepsItsShape()
    {
        final InferenceRequest request = new InferenceRequest("strings").addInput("TEXT", DataType.BYTES,
            new long[] {3, 2}, serialize("a", "bb", "ccc", "", "é", "ff"));
        try (InferenceResponse response = TestModels.await(core.submit(request)).throwIfError())
        {
            assertArrayEquals(new long[] {3, 2}, response.output("UPPER").shape());
            assertArrayEquals(new String[] {"A", "BB", "CCC", "", "É", "FF"}, strings(response.output("UPPER").data(),
                6));
            assertEquals(6, response.output("LENGTHS").data().byteSize() / 4);
        }
    }

    private static InferenceRequest request(final String... words)
    {
        return new InferenceRequest("strings").addInput("TEXT", DataType.BYTES, new long[] {1, words.length},
            serialize(words));
    }

    /** The wire form of a BYTES tensor: each element a 4-byte little-endian length, then its bytes. */
    private static MemorySegment serialize(final String... words)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (final String word : words)
        {
            final byte[] data = utf8(word);
            bytes.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(data.length)
                .array());
            bytes.writeBytes(data);
        }
        final byte[] all = bytes.toByteArray();
        final MemorySegment segment = Arena.ofAuto().allocate(Math.max(1, all.length));
        MemorySegment.copy(all, 0, segment, ValueLayout.JAVA_BYTE, 0, all.length);
        return segment.asSlice(0, all.length);
    }

    private static String[] strings(final MemorySegment data, final int count)
    {
        final String[] result = new String[count];
        long offset = 0;
        for (int i = 0; i < count; i++)
        {
            final int length = data.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), offset);
            final byte[] bytes = data.asSlice(offset + 4, length).toArray(ValueLayout.JAVA_BYTE);
            result[i] = new String(bytes, StandardCharsets.UTF_8);
            offset += 4 + length;
        }
        assertEquals(data.byteSize(), offset, "the elements fill the tensor exactly");
        return result;
    }

    private static byte[] utf8(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
