package io.ingot.server.http;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.server.net.ClientText;
import io.ingot.server.protocol.InferCall;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.ingot.server.testing.FuzzFixtures;
import io.ingot.server.testing.ShmObject;
import io.ingot.testing.FuzzReport;
import io.ingot.testing.TestModels;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP infer decoder as a fuzz target ({@code FrontendDecodersFuzzer} runs it): the body of {@code POST
 * /v2/models/m/infer} (JSON header, binary tensors after
 * it, shared-memory references to a registered region) and its {@code Inference-Header-Content-Length}. Every input
 * is decoded or refused with an {@link InferenceException} whose message is bounded; nothing else may escape, and
 * every buffer the call took must be released (the pool's usage is reported before and after). Seeds:
 * {@code FrontendDecodersFuzzerInputs/}.
 */
public final class HttpInferDecoderFuzzTarget
{
    private static final PooledByteBufAllocator ALLOC = new PooledByteBufAllocator(true);
    private static final InferenceCore CORE = InferenceCore.open(CoreOptions.builder().model(TestModels.config("""
        name: "m" backend: "identity" max_batch_size: 4
        input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [2] }]
        output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [2] }]
        """)).build());
    private static final ShmObject OBJECT = new ShmObject(4096);
    private static final SystemSharedMemoryRegistry REGISTRY = FuzzFixtures.registryWithRegion(OBJECT);
    private static final HttpInferDecoder DECODER = new HttpInferDecoder(CORE, REGISTRY);
    private static final FuzzReport REPORT = FuzzReport.start("HTTP infer decoder",
        () -> FuzzFixtures.liveBuffers(ALLOC));

    /** Prints the report and frees what the target holds. */
    public static void finish()
    {
        REPORT.print();
        REGISTRY.close();
        OBJECT.close();
        CORE.close();
    }

    public static void fuzzOne(final FuzzedDataProvider data)
    {
        final String header = switch (data.consumeInt(0, 3))
        {
            case 0 -> null;
            case 1 -> Integer.toString(data.consumeInt(-1, 4096));
            case 2 -> data.consumeString(12);
            default -> "0";
        };
        final byte[] bytes = data.consumeRemainingAsBytes();
        final ByteBuf body = ALLOC.directBuffer(Math.max(1, bytes.length)).writeBytes(bytes);
        final InferCall call = new InferCall(ALLOC, "m", InferenceRequest.DEFAULT_VERSION);
        boolean refused = false;
        try
        {
            DECODER.decode(call, header, body);
        }
        catch (final InferenceException expected)
        {
            refused = true;
            final String message = expected.getMessage();
            assertTrue(message != null && !message.isBlank(), "a refusal without a reason");
            assertTrue(message.length() <= 2 * ClientText.MAX_MESSAGE_CHARS, "a message of " + message.length()
                + " characters: " + message.substring(0, Math.min(200, message.length())));
        }
        finally
        {
            call.release();
            body.release();
        }
        REPORT.tried(refused);
    }
}
