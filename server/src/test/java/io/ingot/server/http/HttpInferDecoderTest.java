package io.ingot.server.http;

import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.server.protocol.InferCall;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.ingot.server.testing.ShmObject;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HttpInferDecoderTest
{
    private static final ValueLayout.OfFloat FLOAT_LE =
        ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm();
    private final HttpInferDecoder decoder = new HttpInferDecoder(null, registry);
    private InferCall call;

    @AfterEach
    void release()
    {
        if (call != null)
        {
            call.release();
        }
        registry.close();
    }

    private InferCall decode(final String json, final byte[] binary, final String headerLength)
    {
        final byte[] header = json.getBytes(StandardCharsets.UTF_8);
        final ByteBuf body = Unpooled.directBuffer(header.length + binary.length);
        body.writeBytes(header).writeBytes(binary);
        if (call != null)
        {
            call.release();
        }
        call = new InferCall(ByteBufAllocator.DEFAULT, "m", InferenceRequest.DEFAULT_VERSION);
        decoder.decode(call, headerLength, body);
        return call;
    }

    private InferenceException refused(final String json, final byte[] binary, final String headerLength)
    {
        final InferenceException error = assertThrows(InferenceException.class,
            () -> decode(json, binary, headerLength));
        return error;
    }

    private static byte[] floats(final float... values)
    {
        final ByteBuf out = Unpooled.buffer(values.length * 4);
        for (final float value : values)
        {
            out.writeFloatLE(value);
        }
        return out.array();
    }

    private static String length(final String json)
    {
        return Integer.toString(json.getBytes(StandardCharsets.UTF_8).length);
    }

    @Test
    void mixesJsonAndBinaryInputsInInputOrder()
    {
        final String json = "{\"id\":\"r1\",\"inputs\":["
            + "{\"name\":\"A\",\"datatype\":\"FP32\",\"shape\":[1,2],\"parameters\":{\"binary_data_size\":8}},"
            + "{\"name\":\"B\",\"datatype\":\"INT32\",\"shape\":[2],\"data\":[5,6]},"
            + "{\"name\":\"C\",\"datatype\":\"FP32\",\"shape\":[1],\"parameters\":{\"binary_data_size\":4}}],"
            + "\"outputs\":[{\"name\":\"X\",\"parameters\":{\"binary_data\":true}},{\"name\":\"Y\"}]}";
        final byte[] blobs = new byte[12];
        System.arraycopy(floats(1.5f, 2.5f), 0, blobs, 0, 8);
        System.arraycopy(floats(9f), 0, blobs, 8, 4);
        final InferenceRequest request = decode(json, blobs, length(json)).request();
        assertEquals("r1", request.id());
        assertEquals(3, request.inputCount());
        assertEquals(DataType.FP32, request.inputDataType(0));
        assertArrayEquals(new long[] {1, 2}, request.inputShape(0));
        assertEquals(2.5f, request.inputData(0).get(FLOAT_LE, 4));
        assertEquals(6, request.inputData(1).get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
            4));
        assertEquals(9f, request.inputData(2).get(FLOAT_LE, 0));
        assertEquals(2, request.requestedOutputCount());
        assertTrue(call.output("X").binary());
        assertFalse(call.output("Y").binary());
    }

    @Test
    void binaryDataOutputCoversOnlyUnlistedOutputs()
    {
        final String json = "{\"parameters\":{\"binary_data_output\":true},\"inputs\":["
            + "{\"name\":\"A\",\"datatype\":\"FP32\",\"shape\":[1],\"data\":[1]}]}";
        decode(json, new byte[0], null);
        assertTrue(call.allOutputs());
        assertTrue(call.output("ANY").binary());

        final String listed = "{\"parameters\":{\"binary_data_output\":true},\"inputs\":["
            + "{\"name\":\"A\",\"datatype\":\"FP32\",\"shape\":[1],\"data\":[1]}],\"outputs\":[{\"name\":\"X\"}]}";
        decode(listed, new byte[0], null);
        assertFalse(call.output("X").binary());
    }

    @Test
    void priorityAndTimeoutReachTheRequest()
    {
        final String json = "{\"parameters\":{\"priority\":2,\"timeout\":5000,\"custom\":\"x\","
            + "\"sequence_id\":0,\"sequence_start\":false},"
            + "\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\",\"shape\":[1],\"data\":[1]}]}";
        final InferenceRequest request = decode(json, new byte[0], null).request();
        assertEquals(2, request.priority());
        assertEquals(5000, request.timeoutMicros());
    }

    @Test
    void customParametersReachTheRequestTypedAsTritonTypesThem()
    {
        final String json = "{\"parameters\":{\"priority\":1,\"s\":\"x\",\"i\":5,\"b\":true,\"d\":1.5,"
            + "\"big\":18446744073709551615,\"whole\":2.0},"
            + "\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\",\"shape\":[1],\"data\":[1]}]}";
        final InferenceRequest request = decode(json, new byte[0], null).request();
        final StringBuilder seen = new StringBuilder();
        for (int p = 0; p < request.parameterCount(); p++)
        {
            final Object value = request.parameterValue(p);
            seen.append(request.parameterName(p)).append('=').append(value).append(':')
                .append(value.getClass().getSimpleName()).append(' ');
        }
        assertEquals("s=x:String i=5:Long b=true:Boolean d=1.5:Double big=1.8446744073709552E19:Double "
            + "whole=2.0:Double ", seen.toString(), "priority is Triton's own, not a custom parameter");
    }

    @Test
    void sequenceParametersReachTheRequestInAnyOrderAndTritonsAreRefused()
    {
        final String input = ",\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\",\"shape\":[1],\"data\":[1]}]}";
        final InferenceRequest numeric = decode("{\"parameters\":{\"sequence_start\":true,"
            + "\"sequence_id\":18446744073709551615,\"sequence_end\":true}" + input, new byte[0], null).request();
        assertEquals(-1L, numeric.sequenceId(), "2^64 - 1 travels as the unsigned bits of a long");
        assertTrue(numeric.sequenceStart() && numeric.sequenceEnd());
        final InferenceRequest text = decode("{\"parameters\":{\"sequence_id\":\"5\",\"sequence_end\":true}"
            + input, new byte[0], null).request();
        assertEquals("5", text.sequenceKey(), "a string ID stays a string, unlike Triton's uint64 5");
        assertEquals(0, text.sequenceId());
        assertFalse(text.sequenceStart());
        final InferenceException negative = refused("{\"parameters\":{\"sequence_id\":-3}" + input, new byte[0],
            null);
        assertTrue(negative.getMessage().startsWith("Unable to parse 'sequence_id'"), negative.getMessage());
        final InferenceException flag = refused("{\"parameters\":{\"sequence_start\":\"yes\"}" + input,
            new byte[0], null);
        assertTrue(flag.getMessage().contains("sequence_start"), flag.getMessage());
        final InferenceException triton = refused("{\"parameters\":{\"triton_x\":1}" + input, new byte[0], null);
        assertEquals("parameter keys starting with 'triton_' are reserved for Triton usage and should not be "
            + "specified. (parameter 'triton_x')", triton.getMessage());
        final InferenceException priority = refused("{\"parameters\":{\"priority\":-1}" + input, new byte[0], null);
        assertTrue(priority.getMessage().contains("Unable to parse 'priority'"), priority.getMessage());
    }

    @Test
    void malformedRequestsNameTheProblem()
    {
        final InferenceException json = refused("{\"inputs\":[", new byte[0], null);
        assertEquals(ErrorCode.INVALID_ARG, json.code());
        assertTrue(json.getMessage().startsWith("failed to parse the request JSON"), json.getMessage());
        assertFalse(json.getMessage().contains("setStrictness"), json.getMessage());

        final InferenceException datatype = refused(
            "{\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP33\",\"shape\":[1],\"data\":[1]}]}", new byte[0], null);
        assertTrue(datatype.getMessage().contains("invalid datatype 'FP33' of input 'A'"), datatype.getMessage());

        final InferenceException shape = refused(
            "{\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\",\"shape\":[2,2],\"data\":[1,2,3]}]}", new byte[0],
            null);
        assertTrue(shape.getMessage().contains("shape does not match"), shape.getMessage());

        final InferenceException negative = refused(
            "{\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\",\"shape\":[-1],\"data\":[1]}]}", new byte[0], null);
        assertTrue(negative.getMessage().contains("'shape' of input 'A'"), negative.getMessage());

        final String both = "{\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\",\"shape\":[1],"
            + "\"data\":[1],\"parameters\":{\"binary_data_size\":4}}]}";
        final InferenceException two = refused(both, floats(1), length(both));
        assertTrue(two.getMessage().contains("only one of the following fields"), two.getMessage());

        assertTrue(refused("{}", new byte[0], null).getMessage().contains("'inputs'"));
    }

    @Test
    void binarySizesMustAgreeWithTheBody()
    {
        final String json = "{\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\",\"shape\":[1,2],"
            + "\"parameters\":{\"binary_data_size\":8}}]}";
        final InferenceException truncated = refused(json, floats(1f), length(json));
        // server src/http_server.cc ParseJsonTritonIO: the bytes still missing, and the model.
        assertTrue(truncated.getMessage().startsWith("unexpected size for input 'A', expecting 4 additional bytes "
            + "for model 'm'"), truncated.getMessage());

        final InferenceException extra = refused(json, floats(1f, 2f, 3f), length(json));
        assertTrue(extra.getMessage().startsWith("unexpected additional input data for model 'm': 4 bytes"),
            extra.getMessage());

        final InferenceException noHeader = refused(json, new byte[0], null);
        assertTrue(noHeader.getMessage().startsWith("must specify valid 'Infer-Header-Content-Length' in request "
            + "header and 'binary_data_size' when passing inputs in binary data format"), noHeader.getMessage());

        final InferenceException headerTooLong = refused(json, floats(1f, 2f), "100000");
        assertTrue(headerTooLong.getMessage().contains("outside the request body"), headerTooLong.getMessage());

        final InferenceException headerNotNumber = refused(json, floats(1f, 2f), "abc");
        assertTrue(headerNotNumber.getMessage().contains("non-negative integer"), headerNotNumber.getMessage());

        // A size that disagrees with the shape is the core's to refuse (RequestValidator, Triton's "input byte size
        // mismatch"), as in Triton, where the HTTP frontend does not compare them either.
        final String shapeMismatch = "{\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\",\"shape\":[1,3],"
            + "\"parameters\":{\"binary_data_size\":8}}]}";
        assertEquals(8, decode(shapeMismatch, floats(1f, 2f), length(shapeMismatch)).request().inputData(0)
            .byteSize());
    }

    @Test
    void sharedMemoryInputsAndOutputsAreBoundsChecked()
    {
        try (ShmObject object = new ShmObject(256))
        {
            object.memory().set(FLOAT_LE, 16, 3.25f);
            registry.register("in", object.key(), 0, 128);
            registry.register("out", object.key(), 128, 128);
            final String json = "{\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\",\"shape\":[1],\"parameters\":"
                + "{\"shared_memory_region\":\"in\",\"shared_memory_byte_size\":4,\"shared_memory_offset\":16}}],"
                + "\"outputs\":[{\"name\":\"X\",\"parameters\":{\"shared_memory_region\":\"out\","
                + "\"shared_memory_byte_size\":64}}]}";
            final InferenceRequest request = decode(json, new byte[0], null).request();
            assertEquals(3.25f, request.inputData(0).get(FLOAT_LE, 0));
            assertEquals("out", call.output("X").sharedMemory().region().name());

            final InferenceException bounds = refused("{\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\","
                + "\"shape\":[1],\"parameters\":{\"shared_memory_region\":\"in\",\"shared_memory_byte_size\":4,"
                + "\"shared_memory_offset\":126}}]}", new byte[0], null);
            assertTrue(bounds.getMessage().startsWith("Invalid offset + byte size for shared memory region: 'in'"),
                bounds.getMessage());
            // uint64 offsets (Triton's AsUInt): near 2^64 parses, and the region's bounds refuse it.
            final InferenceException far = refused("{\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\","
                + "\"shape\":[1],\"parameters\":{\"shared_memory_region\":\"in\",\"shared_memory_byte_size\":4,"
                + "\"shared_memory_offset\":18446744073709551614}}]}", new byte[0], null);
            assertTrue(far.getMessage().startsWith("Invalid offset for shared memory region: 'in' (tensor 'A': "
                + "offset 18446744073709551614"), far.getMessage());
            final InferenceException beyond = refused("{\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\","
                + "\"shape\":[1],\"parameters\":{\"shared_memory_region\":\"in\",\"shared_memory_byte_size\":4,"
                + "\"shared_memory_offset\":18446744073709551616}}]}", new byte[0], null);
            assertTrue(beyond.getMessage().contains("expected an unsigned integer (0 to 18446744073709551615)"),
                beyond.getMessage());

            final InferenceException overlap = refused("{\"inputs\":[],\"outputs\":["
                + "{\"name\":\"X\",\"parameters\":{\"shared_memory_region\":\"out\",\"shared_memory_byte_size\":16}},"
                + "{\"name\":\"Y\",\"parameters\":{\"shared_memory_region\":\"out\",\"shared_memory_byte_size\":16,"
                + "\"shared_memory_offset\":8}}]}", new byte[0], null);
            assertTrue(overlap.getMessage().contains("overlaps"), overlap.getMessage());

            final InferenceException both = refused("{\"inputs\":[],\"outputs\":[{\"name\":\"X\",\"parameters\":"
                + "{\"shared_memory_region\":\"out\",\"shared_memory_byte_size\":16,\"binary_data\":true}}]}",
                new byte[0], null);
            assertTrue(both.getMessage().contains("both"), both.getMessage());

            final InferenceException unknown = refused("{\"inputs\":[{\"name\":\"A\",\"datatype\":\"FP32\","
                + "\"shape\":[1],\"parameters\":{\"shared_memory_region\":\"zz\",\"shared_memory_byte_size\":4}}]}",
                new byte[0], null);
            assertTrue(unknown.getMessage().contains("'zz'"), unknown.getMessage());
            call.release();
            call = null;
            // Every hold taken by the refused requests was given back.
            assertEquals(0, registry.status("in").getFirst().holders());
            assertEquals(0, registry.status("out").getFirst().holders());
        }
    }
}
