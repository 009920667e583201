package io.ingot.server.grpc;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.protocol.grpc.InferParameter;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.server.net.ClientText;
import io.ingot.server.protocol.InferCall;
import io.ingot.server.protocol.ModelVersions;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.ingot.server.testing.FuzzFixtures;
import io.ingot.server.testing.ShmObject;
import io.ingot.testing.FuzzReport;
import io.ingot.testing.TestModels;
import io.netty.buffer.PooledByteBufAllocator;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gRPC request decoder as a fuzz target ({@code FrontendDecodersFuzzer} runs it): bytes as they arrive in a {@code
 * ModelInferRequest} message are parsed (what
 * the frontend's tolerant marshaller does, {@link GrpcParseGuard}) and, when they parse, decoded into a call: raw and
 * typed contents, shapes, datatypes, parameters, shared-memory references. Every message is decoded or refused with
 * an {@link InferenceException} of bounded length, and the call's buffers are all released. Half the inputs are
 * built from fuzzed fields, then serialized and corrupted, so that coverage reaches the decoder within the CI
 * budget.
 */
public final class GrpcInferDecoderFuzzTarget
{
    private static final String[] TYPES = {"FP32", "INT32", "INT64", "BYTES", "BOOL", "UINT8", "FP16", "FP64",
        "UINT64", "INT8", "BF16", "X"};
    private static final PooledByteBufAllocator ALLOC = new PooledByteBufAllocator(true);
    private static final ShmObject OBJECT = new ShmObject(4096);
    private static final SystemSharedMemoryRegistry REGISTRY = FuzzFixtures.registryWithRegion(OBJECT);
    private static final InferenceCore CORE = InferenceCore.open(CoreOptions.builder().model(TestModels.config("""
        name: "m" backend: "identity" max_batch_size: 4
        input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [2] }]
        output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [2] }]
        """)).build());
    private static final GrpcInferDecoder DECODER = new GrpcInferDecoder(CORE, REGISTRY);
    private static final FuzzReport REPORT = FuzzReport.start("gRPC ModelInferRequest parser and decoder",
        () -> FuzzFixtures.liveBuffers(ALLOC));

    /** Prints the report and frees what the target holds. */
    public static void finish()
    {
        REPORT.print();
        REGISTRY.close();
        OBJECT.close();
        CORE.close();
    }

    private static byte[] structured(final FuzzedDataProvider data)
    {
        final ModelInferRequest.Builder request = ModelInferRequest.newBuilder().setModelName("m")
            .setModelVersion(data.consumeBoolean() ? "" : data.consumeString(4)).setId(data.consumeString(8));
        final int inputs = data.consumeInt(0, 3);
        for (int i = 0; i < inputs; i++)
        {
            final ModelInferRequest.InferInputTensor.Builder input = request.addInputsBuilder()
                .setName(data.consumeString(8)).setDatatype(TYPES[data.consumeInt(0, TYPES.length - 1)]);
            final int rank = data.consumeInt(0, 3);
            for (int d = 0; d < rank; d++)
            {
                input.addShape(data.consumeLong(-2, 8));
            }
            switch (data.consumeInt(0, 3))
            {
                case 0 -> request.addRawInputContents(ByteString.copyFrom(data.consumeBytes(64)));
                case 1 -> input.getContentsBuilder().addFp32Contents(data.consumeFloat()).addIntContents(
                    data.consumeInt()).addBytesContents(ByteString.copyFrom(data.consumeBytes(8)));
                case 2 -> input.putParameters("shared_memory_region", InferParameter.newBuilder()
                    .setStringParam(data.consumeBoolean() ? "r" : data.consumeString(4)).build())
                    .putParameters("shared_memory_byte_size", InferParameter.newBuilder()
                        .setInt64Param(data.consumeLong(-1, 5000)).build())
                    .putParameters("shared_memory_offset", InferParameter.newBuilder()
                        .setInt64Param(data.consumeLong(-1, 5000)).build());
                default -> input.putParameters(data.consumeString(8), InferParameter.newBuilder()
                    .setBoolParam(data.consumeBoolean()).build());
            }
        }
        if (data.consumeBoolean())
        {
            request.putParameters(data.consumeBoolean() ? "priority" : "sequence_id", InferParameter.newBuilder()
                .setUint64Param(data.consumeLong()).build());
        }
        if (data.consumeBoolean())
        {
            request.addOutputsBuilder().setName(data.consumeString(8)).putParameters("shared_memory_region",
                InferParameter.newBuilder().setStringParam("r").build());
        }
        final byte[] bytes = request.build().toByteArray();
        final byte[] flips = data.consumeRemainingAsBytes();
        for (int i = 0; i + 1 < flips.length && bytes.length > 0; i += 2)
        {
            bytes[Byte.toUnsignedInt(flips[i]) % bytes.length] = flips[i + 1];
        }
        return bytes;
    }

    public static void fuzzOne(final FuzzedDataProvider data)
    {
        final byte[] bytes = data.consumeBoolean() ? structured(data) : data.consumeRemainingAsBytes();
        final ModelInferRequest request;
        try
        {
            request = ModelInferRequest.parseFrom(bytes);
        }
        catch (final InvalidProtocolBufferException unparseable)
        {
            REPORT.tried(true);
            return;
        }
        boolean refused = false;
        InferCall call = null;
        try
        {
            call = new InferCall(ALLOC, request.getModelName(), ModelVersions.parse(request.getModelVersion()));
            DECODER.decode(request, call);
        }
        catch (final InferenceException expected)
        {
            refused = true;
            final String message = GrpcStatuses.of(expected).getStatus().getDescription();
            assertTrue(message != null && message.length() <= ClientText.MAX_MESSAGE_CHARS + 32,
                "an unbounded or empty message");
        }
        finally
        {
            if (call != null)
            {
                call.release();
            }
        }
        REPORT.tried(refused);
    }
}
