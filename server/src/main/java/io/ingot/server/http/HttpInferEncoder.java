package io.ingot.server.http;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.OutputTensor;
import io.ingot.server.json.JsonOutput;
import io.ingot.server.json.JsonTensorWriter;
import io.ingot.server.protocol.Classification;
import io.ingot.server.protocol.InferCall;
import io.ingot.server.protocol.ModelVersions;
import io.ingot.server.protocol.RequestedOutput;
import io.ingot.tensor.DataType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders a successful response the way Triton's HTTP frontend does: a JSON header ({@code id} if set,
 * {@code model_name}, {@code model_version} as a string, {@code outputs} in response order), followed by the bytes
 * of the binary outputs in that same order. Binary outputs carry {@code parameters.binary_data_size} and no
 * {@code data}; JSON outputs carry {@code data} and no {@code parameters}; shared-memory outputs carry neither.
 *
 * <p>Binary output bytes are not copied: the buffers the core wrote them into become parts of the body.
 */
public final class HttpInferEncoder
{
    private HttpInferEncoder()
    {
    }

    /**
     * The encoded body and the length of its JSON part.
     *
     * @param body       JSON header then binary blobs; owned by the caller
     * @param jsonLength bytes of the JSON header
     * @param binary     true when at least one byte of binary data follows the header
     */
    public record Encoded(ByteBuf body, int jsonLength, boolean binary)
    {
    }

    /**
     * @param call     the call the response answers
     * @param response the successful response
     * @param alloc    buffer allocator
     * @return the body
     * @throws InferenceException when an output cannot be returned as requested (FP16 as JSON, a shared-memory
     *                            region too small)
     */
    public static Encoded encode(final InferCall call, final InferenceResponse response, final ByteBufAllocator alloc)
    {
        final int count = response.outputCount();
        final ByteBuf header = alloc.directBuffer(256);
        final List<ByteBuf> blobs = new ArrayList<>(count);
        try
        {
            final JsonOutput json = new JsonOutput(header);
            json.beginObject();
            if (!response.id().isEmpty())
            {
                json.name("id").value(response.id());
            }
            json.name("model_name").value(response.modelName())
                .name("model_version").value(ModelVersions.format(response.modelVersion()))
                .name("outputs").beginArray();
            for (int i = 0; i < count; i++)
            {
                final OutputTensor tensor = response.output(i);
                final RequestedOutput plan = call.output(tensor.name());
                if (plan.allocationError() != null)
                {
                    throw new InferenceException(ErrorCode.INVALID_ARG, plan.allocationError());
                }
                if (plan.classCount() > 0)
                {
                    writeClassification(json, plan, tensor, alloc, blobs);
                    continue;
                }
                json.beginObject().name("name").value(tensor.name())
                    .name("datatype").value(tensor.dataType().wireName())
                    .name("shape").beginArray();
                for (int d = 0; d < tensor.rank(); d++)
                {
                    json.value(tensor.dim(d));
                }
                json.endArray();
                if (plan.sharedMemory() != null)
                {
                    call.placeInSharedMemory(plan, tensor);
                }
                else if (plan.binary())
                {
                    final ByteBuf bytes = call.takeOutputBytes(plan, tensor);
                    json.name("parameters").beginObject().name("binary_data_size").value(bytes.readableBytes())
                        .endObject();
                    if (bytes.isReadable())
                    {
                        blobs.add(bytes);
                    }
                    else
                    {
                        bytes.release();
                    }
                }
                else
                {
                    json.name("data");
                    JsonTensorWriter.write(json, tensor.name(), tensor.dataType(), tensor.data());
                }
                json.endObject();
            }
            json.endArray().endObject();
            final int jsonLength = header.readableBytes();
            if (blobs.isEmpty())
            {
                return new Encoded(header, jsonLength, false);
            }
            final CompositeByteBuf body = alloc.compositeDirectBuffer(blobs.size() + 1);
            body.addComponent(true, header);
            for (final ByteBuf blob : blobs)
            {
                body.addComponent(true, blob);
            }
            return new Encoded(body, jsonLength, true);
        }
        catch (final RuntimeException failure)
        {
            header.release();
            for (final ByteBuf blob : blobs)
            {
                blob.release();
            }
            throw failure;
        }
    }

    /** An output requested with {@code classification}: a BYTES tensor of top-k strings, binary or JSON. */
    private static void writeClassification(final JsonOutput json, final RequestedOutput plan,
        final OutputTensor tensor, final ByteBufAllocator alloc, final List<ByteBuf> blobs)
    {
        final Classification.Result result = plan.classification(tensor.dataType(), tensor.shape(), tensor.data(),
            alloc);
        final ByteBuf bytes = result.bytes();
        try
        {
            json.beginObject().name("name").value(tensor.name()).name("datatype").value(DataType.BYTES.wireName())
                .name("shape").beginArray();
            for (final long dim : result.shape())
            {
                json.value(dim);
            }
            json.endArray();
            if (plan.binary())
            {
                json.name("parameters").beginObject().name("binary_data_size").value(bytes.readableBytes())
                    .endObject();
            }
            else
            {
                json.name("data");
                JsonTensorWriter.write(json, tensor.name(), DataType.BYTES,
                    MemorySegment.ofBuffer(bytes.nioBuffer()));
            }
            json.endObject();
        }
        catch (final RuntimeException failure)
        {
            bytes.release();
            throw failure;
        }
        if (plan.binary() && bytes.isReadable())
        {
            blobs.add(bytes);
        }
        else
        {
            bytes.release();
        }
    }
}
