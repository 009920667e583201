package io.ingot.examples.embedding;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.ResponseListener;
import io.ingot.tensor.DataType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;

/**
 * MiniLM run by the Ingot core in this JVM, through its asynchronous listener API: {@code submit(request, listener)}
 * returns at once, the listener pools the output on Ingot's instance thread and completes the future, so no thread
 * waits for an inference. Requests from concurrent HTTP calls with texts of one length bucket are batched together
 * by Ingot's dynamic batcher (the model's {@code dynamic_batching}). Thread-safe.
 */
public final class InProcessEmbeddingModel implements EmbeddingModel
{
    private final InferenceCore core;
    private final String model;

    /**
     * @param core  the core that serves the model
     * @param model the model's name (all-MiniLM-L6-v2: inputs input_ids, attention_mask, token_type_ids)
     */
    public InProcessEmbeddingModel(final InferenceCore core, final String model)
    {
        this.core = core;
        this.model = model;
    }

    @Override
    public CompletableFuture<float[]> embed(final TokenizedText tokens)
    {
        // The request holds the input segments until its response is delivered; the automatic arena frees them after.
        final Arena arena = Arena.ofAuto();
        final long[] shape = {1, tokens.length()};
        final MemorySegment ids = arena.allocate(ValueLayout.JAVA_LONG, tokens.length());
        final MemorySegment mask = arena.allocate(ValueLayout.JAVA_LONG, tokens.length());
        final MemorySegment types = arena.allocate(ValueLayout.JAVA_LONG, tokens.length());
        MemorySegment.copy(tokens.ids(), 0, ids, ValueLayout.JAVA_LONG, 0, tokens.length());
        MemorySegment.copy(tokens.mask(), 0, mask, ValueLayout.JAVA_LONG, 0, tokens.length());
        final InferenceRequest request = new InferenceRequest(model)
            .addInput("input_ids", DataType.INT64, shape, ids)
            .addInput("attention_mask", DataType.INT64, shape, mask)
            .addInput("token_type_ids", DataType.INT64, shape, types);
        final CompletableFuture<float[]> embedding = new CompletableFuture<>();
        final ResponseListener listener = response ->
        {
            try (response)
            {
                embedding.complete(MeanPooling.pool(response.throwIfError().output("last_hidden_state").data(),
                    tokens.tokens()));
            }
            catch (final RuntimeException failed)
            {
                embedding.completeExceptionally(failed);
            }
        };
        try
        {
            core.submit(request, listener);
        }
        catch (final InferenceException refused)
        {
            embedding.completeExceptionally(refused);
        }
        return embedding;
    }
}
