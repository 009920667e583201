package io.ingot.server.grpc;

import com.google.protobuf.ByteString;
import io.ingot.tensor.DataType;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.server.protocol.InferCall;
import io.ingot.protocol.grpc.InferParameter;
import io.ingot.protocol.grpc.InferTensorContents;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.ingot.server.testing.ShmObject;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GrpcInferDecoderTest
{
    private static final ValueLayout.OfFloat FLOAT_LE =
        ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm();
    private final GrpcInferDecoder decoder = new GrpcInferDecoder(null, registry);
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

    private InferenceRequest decode(final ModelInferRequest request)
    {
        if (call != null)
        {
            call.release();
        }
        call = new InferCall(ByteBufAllocator.DEFAULT, request.getModelName(), InferenceRequest.DEFAULT_VERSION);
        decoder.decode(request, call);
        return call.request();
    }

    private static ModelInferRequest.InferInputTensor.Builder input(final String name, final String type,
        final long... shape)
    {
        final ModelInferRequest.InferInputTensor.Builder input = ModelInferRequest.InferInputTensor.newBuilder()
            .setName(name).setDatatype(type);
        for (final long dim : shape)
        {
            input.addShape(dim);
        }
        return input;
    }

    private static ByteString rawFloats(final float... values)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (final float value : values)
        {
            buffer.putFloat(value);
        }
        return ByteString.copyFrom(buffer.array());
    }

    @Test
    void rawContentsBelongToInputsInOrder()
    {
        final InferenceRequest request = decode(ModelInferRequest.newBuilder().setModelName("m").setId("7")
            .addInputs(input("A", "FP32", 1, 2))
            .addInputs(input("B", "FP32", 1, 1))
            .addRawInputContents(rawFloats(1f, 2f))
            .addRawInputContents(rawFloats(3f))
            .build());
        assertEquals("7", request.id());
        assertEquals(2f, request.inputData(0).get(FLOAT_LE, 4));
        assertEquals(3f, request.inputData(1).get(FLOAT_LE, 0));
        assertTrue(call.allOutputs());
        assertTrue(call.output("ANY").binary());
    }

    @Test
    void typedContentsAreConvertedAndChecked()
    {
        final InferenceRequest request = decode(ModelInferRequest.newBuilder().setModelName("m")
            .addInputs(input("A", "INT16", 3).setContents(InferTensorContents.newBuilder()
                .addIntContents(1).addIntContents(-2).addIntContents(300)))
            .addInputs(input("S", "BYTES", 1).setContents(InferTensorContents.newBuilder()
                .addBytesContents(ByteString.copyFromUtf8("hey"))))
            .build());
        assertEquals(DataType.INT16, request.inputDataType(0));
        assertEquals(-2, request.inputData(0).get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
            2));
        assertEquals(7, request.inputData(1).byteSize());
        assertEquals("hey", new String(request.inputData(1).asSlice(4, 3).toArray(ValueLayout.JAVA_BYTE),
            StandardCharsets.UTF_8));

        // Too few elements are converted as given: the core's byte-size check then names both sizes, as Triton's
        // core does (GrpcServiceTest.modelInferErrorsMapToStatusCodes).
        assertEquals(4, decode(ModelInferRequest.newBuilder().setModelName("m").addInputs(input("A", "FP32", 2)
            .setContents(InferTensorContents.newBuilder().addFp32Contents(1f))).build()).inputData(0).byteSize());
        // server src/grpc/infer_handler.cc InferGRPCToInputHelper
        final InferenceException field = assertThrows(InferenceException.class, () -> decode(ModelInferRequest
            .newBuilder().setModelName("m").addInputs(input("A", "INT32", 1)
                .setContents(InferTensorContents.newBuilder().addFp32Contents(1f))).build()));
        assertTrue(field.getMessage().startsWith("unexpected explicit tensor data for input tensor 'A' for model 'm' "
            + "of type 'FP32', expected datatype 'INT32'"), field.getMessage());
        assertThrows(InferenceException.class, () -> decode(ModelInferRequest.newBuilder().setModelName("m")
            .addInputs(input("A", "FP16", 1).setContents(InferTensorContents.newBuilder().addFp32Contents(1f)))
            .build()));
    }

    @Test
    void customParametersReachTheRequestAndAnUnsignedOneIsTritonsError()
    {
        final ModelInferRequest.Builder request = ModelInferRequest.newBuilder().setModelName("m")
            .putParameters("s", InferParameter.newBuilder().setStringParam("x").build())
            .putParameters("i", InferParameter.newBuilder().setInt64Param(5).build())
            .putParameters("b", InferParameter.newBuilder().setBoolParam(true).build())
            .putParameters("d", InferParameter.newBuilder().setDoubleParam(0.25).build())
            .putParameters("timeout", InferParameter.newBuilder().setInt64Param(7).build())
            .addInputs(input("A", "FP32", 1)).addRawInputContents(rawFloats(1));
        final InferenceRequest decoded = decode(request.build());
        final java.util.Map<String, Object> seen = new java.util.TreeMap<>();
        for (int p = 0; p < decoded.parameterCount(); p++)
        {
            seen.put(decoded.parameterName(p), decoded.parameterValue(p));
        }
        assertEquals(java.util.Map.of("s", "x", "i", 5L, "b", true, "d", 0.25), seen);
        assertEquals(7, decoded.timeoutMicros());
        final InferenceException unsigned = assertThrows(InferenceException.class, () -> decode(request
            .putParameters("u", InferParameter.newBuilder().setUint64Param(3).build()).build()));
        assertEquals("invalid value type for 'u' parameter, expected int64_param, bool_param, or string_param.",
            unsigned.getMessage());
    }

    @Test
    void rawAndTypedContentsAreNeverMixed()
    {
        final InferenceException mixed = assertThrows(InferenceException.class, () -> decode(ModelInferRequest
            .newBuilder().setModelName("m")
            .addInputs(input("A", "FP32", 1).setContents(InferTensorContents.newBuilder().addFp32Contents(1f)))
            .addInputs(input("B", "FP32", 1))
            .addRawInputContents(rawFloats(1f))
            .build()));
        // server src/grpc/infer_handler.cc names the model in content errors.
        assertTrue(mixed.getMessage().startsWith("contents field must not be specified when using raw_input_contents "
            + "for 'A' for model 'm'"), mixed.getMessage());
        final InferenceException extra = assertThrows(InferenceException.class, () -> decode(ModelInferRequest
            .newBuilder().setModelName("m").addInputs(input("A", "FP32", 1))
            .addRawInputContents(rawFloats(1f)).addRawInputContents(rawFloats(2f)).build()));
        assertTrue(extra.getMessage().contains("raw_input_contents has 2 entries"), extra.getMessage());
        final InferenceException missing = assertThrows(InferenceException.class, () -> decode(ModelInferRequest
            .newBuilder().setModelName("m").addInputs(input("A", "FP32", 1)).build()));
        assertTrue(missing.getMessage().contains("unable to find data for input tensor 'A'"), missing.getMessage());
        assertTrue(missing.getMessage().startsWith("unable to find data for input tensor 'A' for model 'm' in "
            + "request."), missing.getMessage());
    }

    @Test
    void parametersAreTypedAsTritonsClientsSendThem()
    {
        final ModelInferRequest.Builder base = ModelInferRequest.newBuilder().setModelName("m")
            .addInputs(input("A", "FP32", 1)).addRawInputContents(rawFloats(1f));
        final InferenceRequest request = decode(base.clone()
            .putParameters("priority", InferParameter.newBuilder().setUint64Param(3).build())
            .putParameters("timeout", InferParameter.newBuilder().setInt64Param(1000).build())
            .putParameters("triton_enable_empty_final_response", InferParameter.newBuilder().setBoolParam(true)
                .build())
            .build());
        assertEquals(3, request.priority());
        assertEquals(1000, request.timeoutMicros());
        assertEquals(2, decode(base.clone().putParameters("priority",
            InferParameter.newBuilder().setInt64Param(2).build()).build()).priority());

        assertThrows(InferenceException.class, () -> decode(base.clone().putParameters("timeout",
            InferParameter.newBuilder().setUint64Param(5).build()).build()));
        // Triton's infer_handler.cc: int64_param (IDs of 2^63 and more arrive negative) or string_param; bool flags.
        final InferenceRequest sequence = decode(base.clone()
            .putParameters("sequence_id", InferParameter.newBuilder().setInt64Param(-2).build())
            .putParameters("sequence_start", InferParameter.newBuilder().setBoolParam(true).build()).build());
        assertEquals("18446744073709551614", Long.toUnsignedString(sequence.sequenceId()));
        assertTrue(sequence.sequenceStart());
        assertEquals("abc", decode(base.clone().putParameters("sequence_id", InferParameter.newBuilder()
            .setStringParam("abc").build()).build()).sequenceKey());
        final InferenceException unsigned = assertThrows(InferenceException.class, () -> decode(base.clone()
            .putParameters("sequence_id", InferParameter.newBuilder().setUint64Param(9).build()).build()));
        assertEquals("invalid value type for 'sequence_id' parameter, expected int64_param or string_param.",
            unsigned.getMessage());
        final InferenceException flag = assertThrows(InferenceException.class, () -> decode(base.clone()
            .putParameters("sequence_end", InferParameter.newBuilder().setInt64Param(1).build()).build()));
        assertEquals("invalid value type for 'sequence_end' parameter, expected bool_param.", flag.getMessage());
        final InferenceException reserved = assertThrows(InferenceException.class, () -> decode(base.clone()
            .putParameters("triton_other", InferParameter.newBuilder().setBoolParam(true).build()).build()));
        assertTrue(reserved.getMessage().startsWith("parameter keys starting with 'triton_' are reserved for Triton "
            + "usage. Only the following keys starting with 'triton_' are allowed: "
            + "triton_enable_empty_final_response"), reserved.getMessage());
    }

    @Test
    void sharedMemoryOffsetsAreUnsigned64BitAsTritonReadsThem()
    {
        try (ShmObject object = new ShmObject(256))
        {
            registry.register("g", object.key(), 0, 64);
            // Triton's clients send int64_param; Triton reads it into a uint64, so -1 is 2^64-1, past the region.
            for (final InferParameter offset : new InferParameter[] {InferParameter.newBuilder().setInt64Param(-1)
                .build(), InferParameter.newBuilder().setUint64Param(-2).build()})
            {
                final InferenceException far = assertThrows(InferenceException.class, () -> decode(ModelInferRequest
                    .newBuilder().setModelName("m").addInputs(input("A", "FP32", 1)
                        .putParameters("shared_memory_region", InferParameter.newBuilder().setStringParam("g").build())
                        .putParameters("shared_memory_byte_size", InferParameter.newBuilder().setInt64Param(4).build())
                        .putParameters("shared_memory_offset", offset)).build()));
                assertTrue(far.getMessage().startsWith("Invalid offset for shared memory region: 'g'"),
                    far.getMessage());
            }
            final InferenceException typed = assertThrows(InferenceException.class, () -> decode(ModelInferRequest
                .newBuilder().setModelName("m").addInputs(input("A", "FP32", 1)
                    .putParameters("shared_memory_region", InferParameter.newBuilder().setStringParam("g").build())
                    .putParameters("shared_memory_byte_size", InferParameter.newBuilder().setStringParam("4")
                        .build())).build()));
            assertEquals("invalid value type for 'shared_memory_byte_size' parameter for tensor 'A', expected "
                + "int64_param.", typed.getMessage());
        }
        finally
        {
            registry.close();
        }
    }
}
