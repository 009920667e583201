package io.ingot.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import com.google.protobuf.TextFormat;
import io.ingot.api.CoreOptions;
import io.ingot.tensor.DataType;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.OutputTensor;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInstanceGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example MiniLM model served by Ingot computes what ONNX Runtime computes when called directly, whether a
 * request runs alone or batched with others, and its embeddings mean what they should (mean pooling over the
 * attention mask). Token ids come from the
 * tokenizer shipped in the same Maven artifact as the model, through DJL's HuggingFace tokenizer (its native library
 * is inside its jar, so this works offline).
 */
class MiniLmCorrectnessTest
{
    /** Every sentence is padded to this many tokens so that requests have one shape and can batch. */
    private static final int TOKENS = 32;
    private static final int HIDDEN = 384;

    private static final String GUITAR = "A man is playing a guitar.";
    private static final String STRUMMING = "Someone is strumming a guitar.";
    private static final String MARKET = "The stock market fell sharply on Monday.";
    private static final List<String> SENTENCES = List.of(GUITAR, STRUMMING, MARKET,
        "The cat sleeps on the warm windowsill.", "Ingot batches requests for ONNX Runtime.",
        "Rain is expected tomorrow afternoon.");

    private static final List<long[]> IDS = new ArrayList<>();
    private static final List<long[]> MASKS = new ArrayList<>();
    private static final List<float[]> REFERENCE = new ArrayList<>();
    private static InferenceCore core;

    @BeforeAll
    static void tokenizeAndComputeReferences() throws Exception
    {
        final Path tokenizerFile = Path.of(System.getProperty("ingot.minilm.tokenizer",
            "target/minilm/all-minilm-l6-v2-q-tokenizer.json"));
        try (HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.newInstance(tokenizerFile,
            Map.of("padding", "false", "truncation", "false")))
        {
            for (final String sentence : SENTENCES)
            {
                final Encoding encoding = tokenizer.encode(sentence);
                assertEquals(101L, encoding.getIds()[0], "starts with [CLS]");
                assertTrue(encoding.getIds().length <= TOKENS, sentence);
                final long[] ids = new long[TOKENS];
                final long[] mask = new long[TOKENS];
                System.arraycopy(encoding.getIds(), 0, ids, 0, encoding.getIds().length);
                System.arraycopy(encoding.getAttentionMask(), 0, mask, 0, encoding.getAttentionMask().length);
                IDS.add(ids);
                MASKS.add(mask);
            }
        }
        for (int i = 0; i < SENTENCES.size(); i++)
        {
            REFERENCE.add(onnxRuntime(List.of(i)).getFirst());
        }
        core = ExampleRepository.open("minilm");
    }

    @AfterAll
    static void closeCore() throws InterruptedException
    {
        if (core != null)
        {
            ExampleRepository.close(core);
        }
    }

    @Test
    void equalsOnnxRuntimeWhenEachRequestRunsAlone() throws Exception
    {
        try (Arena arena = Arena.ofShared())
        {
            for (int i = 0; i < SENTENCES.size(); i++)
            {
                final float[] embedding = embed(core.submit(request(i, arena)).get(60, TimeUnit.SECONDS));
                assertSimilar(REFERENCE.get(i), embedding, SENTENCES.get(i) + " (alone)");
            }
        }
    }

    /**
     * The quantized MiniLM quantizes activations per tensor (DynamicQuantizeLinear), so a sentence's output depends
     * slightly on the other rows of its batch (cosine about 0.99 against running alone, in ONNX Runtime itself).
     * The reference for a batched request is therefore ONNX Runtime running the same batch. The batch is made
     * deterministic: a copy of the example configuration that waits (up to 30 s) for exactly all six sentences.
     */
    @Test
    void equalsOnnxRuntimeWhenRequestsAreBatchedTogether(@TempDir final Path repository) throws Exception
    {
        final ModelConfig.Builder config = ModelConfig.newBuilder();
        TextFormat.merge(Files.readString(ExampleRepository.root().resolve("minilm").resolve("config.pbtxt")),
            config);
        config.setDynamicBatching(ModelDynamicBatching.newBuilder().addPreferredBatchSize(SENTENCES.size())
            .setMaxQueueDelayMicroseconds(30_000_000L));
        config.clearInstanceGroup().addInstanceGroup(ModelInstanceGroup.newBuilder().setCount(1)
            .setKind(ModelInstanceGroup.Kind.KIND_CPU));
        final Path version = Files.createDirectories(repository.resolve("minilm").resolve("1"));
        Files.writeString(repository.resolve("minilm").resolve("config.pbtxt"), TextFormat.printer().printToString(
            config.build()));
        Files.createSymbolicLink(version.resolve("model.onnx"), ExampleRepository.modelFile("minilm").toAbsolutePath());

        final List<Integer> all = new ArrayList<>();
        for (int i = 0; i < SENTENCES.size(); i++)
        {
            all.add(i);
        }
        final List<float[]> reference = onnxRuntime(all);
        final InferenceCore batching = InferenceCore.open(CoreOptions.builder().modelRepository(repository).build());
        try (Arena arena = Arena.ofShared())
        {
            final List<CompletableFuture<InferenceResponse>> responses = new ArrayList<>();
            for (final int sentence : all)
            {
                responses.add(batching.submit(request(sentence, arena)));
            }
            for (final int sentence : all)
            {
                final float[] embedding = embed(responses.get(sentence).get(60, TimeUnit.SECONDS));
                assertSimilar(reference.get(sentence), embedding, SENTENCES.get(sentence) + " (batched)");
            }
            final var statistics = ExampleRepository.statistics(batching, "minilm");
            assertEquals(1, statistics.executionCount(), "the six requests ran as one batch: " + statistics);
            assertEquals(SENTENCES.size(), ExampleRepository.largestBatch(statistics));
        }
        finally
        {
            ExampleRepository.close(batching);
        }
    }

    @Test
    void paraphrasesAreCloserToEachOtherThanToAnUnrelatedSentence() throws Exception
    {
        try (Arena arena = Arena.ofShared())
        {
            final float[] guitar = embed(core.submit(request(SENTENCES.indexOf(GUITAR), arena)).get(60,
                TimeUnit.SECONDS));
            final float[] strumming = embed(core.submit(request(SENTENCES.indexOf(STRUMMING), arena)).get(60,
                TimeUnit.SECONDS));
            final float[] market = embed(core.submit(request(SENTENCES.indexOf(MARKET), arena)).get(60,
                TimeUnit.SECONDS));
            final double paraphrase = cosine(guitar, strumming);
            assertTrue(paraphrase > cosine(guitar, market), "paraphrase " + paraphrase + " vs unrelated "
                + cosine(guitar, market));
            assertTrue(paraphrase > cosine(strumming, market));
            assertTrue(paraphrase > 0.5, "paraphrases should be clearly similar, cosine " + paraphrase);
        }
    }

    /**
     * Runs sentences through ONNX Runtime directly, as one batch.
     *
     * @param sentences indexes into {@link #SENTENCES}
     * @return their mean-pooled embeddings, in order
     */
    private static List<float[]> onnxRuntime(final List<Integer> sentences) throws Exception
    {
        final OrtEnvironment env = OrtEnvironment.getEnvironment();
        final int rows = sentences.size();
        final long[] ids = new long[rows * TOKENS];
        final long[] masks = new long[rows * TOKENS];
        for (int r = 0; r < rows; r++)
        {
            System.arraycopy(IDS.get(sentences.get(r)), 0, ids, r * TOKENS, TOKENS);
            System.arraycopy(MASKS.get(sentences.get(r)), 0, masks, r * TOKENS, TOKENS);
        }
        final long[] shape = {rows, TOKENS};
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            OrtSession session = env.createSession(ExampleRepository.modelFile("minilm").toString(), options);
            OnnxTensor idTensor = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
            OnnxTensor maskTensor = OnnxTensor.createTensor(env, LongBuffer.wrap(masks), shape);
            OnnxTensor typeTensor = OnnxTensor.createTensor(env, LongBuffer.wrap(new long[rows * TOKENS]), shape);
            OrtSession.Result result = session.run(Map.of("input_ids", idTensor, "attention_mask", maskTensor,
                "token_type_ids", typeTensor)))
        {
            final float[][][] hidden = (float[][][]) result.get("last_hidden_state").orElseThrow().getValue();
            final List<float[]> embeddings = new ArrayList<>();
            for (int r = 0; r < rows; r++)
            {
                final float[] flat = new float[TOKENS * HIDDEN];
                for (int t = 0; t < TOKENS; t++)
                {
                    System.arraycopy(hidden[r][t], 0, flat, t * HIDDEN, HIDDEN);
                }
                embeddings.add(meanPool(flat, MASKS.get(sentences.get(r))));
            }
            return embeddings;
        }
    }

    private static InferenceRequest request(final int sentence, final Arena arena)
    {
        final long[] shape = {1, TOKENS};
        return new InferenceRequest("minilm")
            .id("sentence-" + sentence)
            .addInput("input_ids", DataType.INT64, shape, longs(arena, IDS.get(sentence)))
            .addInput("attention_mask", DataType.INT64, shape, longs(arena, MASKS.get(sentence)))
            .addInput("token_type_ids", DataType.INT64, shape, longs(arena, new long[TOKENS]))
            .requestOutput("last_hidden_state");
    }

    private static MemorySegment longs(final Arena arena, final long[] values)
    {
        final MemorySegment segment = arena.allocate((long) values.length * Long.BYTES, 64);
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_LONG, 0, values.length);
        return segment;
    }

    /** Mean pooling over the real tokens of the one sentence in the response. */
    private float[] embed(final InferenceResponse response)
    {
        try (response)
        {
            response.throwIfError();
            final OutputTensor hidden = response.output("last_hidden_state");
            assertArrayEquals(new long[] {1, TOKENS, HIDDEN}, hidden.shape());
            final int sentence = Integer.parseInt(response.id().substring("sentence-".length()));
            return meanPool(hidden.data().toArray(ValueLayout.JAVA_FLOAT), MASKS.get(sentence));
        }
    }

    private static float[] meanPool(final float[] hidden, final long[] mask)
    {
        final float[] pooled = new float[HIDDEN];
        int count = 0;
        for (int t = 0; t < TOKENS; t++)
        {
            if (mask[t] == 0)
            {
                continue;
            }
            count++;
            for (int h = 0; h < HIDDEN; h++)
            {
                pooled[h] += hidden[t * HIDDEN + h];
            }
        }
        for (int h = 0; h < HIDDEN; h++)
        {
            pooled[h] /= count;
        }
        return pooled;
    }

    private static void assertSimilar(final float[] expected, final float[] actual, final String what)
    {
        final double similarity = cosine(expected, actual);
        assertTrue(similarity >= 0.9999, what + ": cosine " + similarity);
    }

    private static double cosine(final float[] a, final float[] b)
    {
        double dot = 0;
        double normA = 0;
        double normB = 0;
        for (int i = 0; i < a.length; i++)
        {
            dot += (double) a[i] * b[i];
            normA += (double) a[i] * a[i];
            normB += (double) b[i] * b[i];
        }
        return dot / Math.sqrt(normA * normB);
    }
}
