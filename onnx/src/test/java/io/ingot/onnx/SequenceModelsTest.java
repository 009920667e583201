package io.ingot.onnx;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.config.proto.ModelConfig;
import io.ingot.onnx.writer.OnnxModelBuilder;
import io.ingot.onnx.writer.SequenceModels;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sequence-batcher example models of {@code examples/models} served by the real ONNX Runtime backend through
 * the core: {@code simple_sequence} reads the START/READY control inputs, {@code sequence_accumulator_onnx} carries
 * its running sum in implicit state ({@code INPUT_STATE}/{@code OUTPUT_STATE}). The values are those of Triton's
 * {@code simple_http_sequence_sync_infer_client.py}: {@code [0] + [11, 7, 5, 3, 2, 0, 1]} for sequence 1000 and
 * {@code [100]} followed by the negations for 1001.
 */
class SequenceModelsTest
{
    private static final int[] VALUES = {11, 7, 5, 3, 2, 0, 1};

    @TempDir
    Path directory;

    private static int[] sequence(final int first, final int sign)
    {
        final int[] sent = new int[VALUES.length + 1];
        sent[0] = first;
        for (int i = 0; i < VALUES.length; i++)
        {
            sent[i + 1] = sign * VALUES[i];
        }
        return sent;
    }

    private static InferenceRequest request(final String model, final long id, final int index, final int[] sent)
    {
        final MemorySegment data = Arena.ofAuto().allocate(4, 4);
        data.set(ValueLayout.JAVA_INT, 0, sent[index]);
        return new InferenceRequest(model).sequence(id, index == 0, index == sent.length - 1)
            .addInput("INPUT", DataType.INT32, new long[] {1, 1}, data);
    }

    private static int output(final CompletableFuture<InferenceResponse> future) throws Exception
    {
        try (InferenceResponse response = future.get(60, TimeUnit.SECONDS))
        {
            assertTrue(response.isOk(), String.valueOf(response.error()));
            return response.output("OUTPUT").data().get(ValueLayout.JAVA_INT, 0);
        }
    }

    /** Both sequences interleaved, each pair of requests in flight together (so they can share a batch). */
    private static List<List<Integer>> interleave(final InferenceCore core, final String model) throws Exception
    {
        final int[] first = sequence(0, 1);
        final int[] second = sequence(100, -1);
        final List<Integer> firstOut = new ArrayList<>();
        final List<Integer> secondOut = new ArrayList<>();
        for (int i = 0; i < first.length; i++)
        {
            final CompletableFuture<InferenceResponse> a = core.submit(request(model, 1000, i, first));
            final CompletableFuture<InferenceResponse> b = core.submit(request(model, 1001, i, second));
            firstOut.add(output(a));
            secondOut.add(output(b));
        }
        return List.of(firstOut, secondOut);
    }

    @Test
    void simpleSequenceAnswersWhatTritonsSequenceClientsCheck() throws Exception
    {
        ExampleRepository.modelFile(SequenceModels.SIMPLE_SEQUENCE);
        final InferenceCore core = ExampleRepository.open(SequenceModels.SIMPLE_SEQUENCE);
        try
        {
            final List<List<Integer>> outputs = interleave(core, SequenceModels.SIMPLE_SEQUENCE);
            // Triton's client: expected 1 (resp. 101) first, then each value as sent.
            assertEquals(List.of(1, 11, 7, 5, 3, 2, 0, 1), outputs.get(0));
            assertEquals(List.of(101, -11, -7, -5, -3, -2, 0, -1), outputs.get(1));
        }
        finally
        {
            ExampleRepository.close(core);
        }
    }

    @Test
    void implicitStateCarriesEachSequencesSumAndStartResetsIt() throws Exception
    {
        ExampleRepository.modelFile(SequenceModels.ACCUMULATOR);
        final InferenceCore core = ExampleRepository.open(SequenceModels.ACCUMULATOR);
        try
        {
            for (int round = 0; round < 2; round++)
            {
                // The second round reuses both IDs: START must bring the state back to zeros.
                final List<List<Integer>> outputs = interleave(core, SequenceModels.ACCUMULATOR);
                assertEquals(List.of(0, 11, 18, 23, 26, 28, 28, 29), outputs.get(0), "round " + round);
                assertEquals(List.of(100, 89, 82, 77, 74, 72, 72, 71), outputs.get(1), "round " + round);
            }
        }
        finally
        {
            ExampleRepository.close(core);
        }
    }

    @Test
    void implicitStateHoldsWithEveryRequestOfBothSequencesInFlightAtOnce() throws Exception
    {
        final InferenceCore core = ExampleRepository.open(SequenceModels.ACCUMULATOR);
        try
        {
            final int[] first = sequence(0, 1);
            final int[] second = sequence(100, -1);
            final java.util.SplittableRandom random = new java.util.SplittableRandom(16);
            for (int round = 0; round < 50; round++)
            {
                final List<CompletableFuture<InferenceResponse>> a = new ArrayList<>();
                final List<CompletableFuture<InferenceResponse>> b = new ArrayList<>();
                for (int i = 0; i < first.length; i++)
                {
                    a.add(core.submit(request(SequenceModels.ACCUMULATOR, 2000, i, first)));
                    // Odd rounds: the requests trickle in (as from a network stream) while earlier ones execute.
                    pause(round, random);
                    b.add(core.submit(request(SequenceModels.ACCUMULATOR, 2001, i, second)));
                    pause(round, random);
                }
                int sumA = 0;
                int sumB = 0;
                for (int i = 0; i < first.length; i++)
                {
                    sumA += first[i];
                    sumB += second[i];
                    assertEquals(sumA, output(a.get(i)), "round " + round + ", sequence 2000, request " + i);
                    assertEquals(sumB, output(b.get(i)), "round " + round + ", sequence 2001, request " + i);
                }
            }
        }
        finally
        {
            ExampleRepository.close(core);
        }
    }

    private static void pause(final int round, final java.util.SplittableRandom random)
    {
        if (round % 2 == 1)
        {
            java.util.concurrent.locks.LockSupport.parkNanos(random.nextLong(20_000, 1_500_000));
        }
    }

    private String loadFailure(final String pbtxt) throws Exception
    {
        final Path file = directory.resolve("1").resolve("model.onnx");
        OnnxModelBuilder.write(SequenceModels.simpleSequence(), file);
        final ModelConfig config = TestModels.config(pbtxt);
        return assertThrows(ModelLoadException.class,
            () -> new OnnxBackendFactory().load(TestModels.context(config, file))).getMessage();
    }

    private static final String IO = "max_batch_size: 8 input { name: 'INPUT' data_type: TYPE_INT32 dims: [1] }"
        + " output { name: 'OUTPUT' data_type: TYPE_INT32 dims: [1] }";

    @Test
    void aControlTheModelLacksIsTritonsLoadError() throws Exception
    {
        final String message = loadFailure("name: 'seq' backend: 'onnxruntime' " + IO + " sequence_batching {"
            + " control_input [{ name: 'BEGIN' control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] }] },"
            + " { name: 'READY' control [{ kind: CONTROL_SEQUENCE_READY int32_false_true: [0, 1] }] }] }");
        assertTrue(message.contains("configuration specified sequence control 'BEGIN', but model does not provide"
            + " that input (model 'seq' has inputs: INPUT, READY, START)"), message);
    }

    @Test
    void aControlOfTheWrongTypeIsTritonsLoadError() throws Exception
    {
        final String message = loadFailure("name: 'seq' backend: 'onnxruntime' " + IO + " sequence_batching {"
            + " control_input [{ name: 'START' control [{ kind: CONTROL_SEQUENCE_START fp32_false_true: [0, 1] }] },"
            + " { name: 'READY' control [{ kind: CONTROL_SEQUENCE_READY int32_false_true: [0, 1] }] }] }");
        assertTrue(message.contains("unable to load model 'seq', sequence control 'START', the model expects"
            + " data-type INT32 but the model configuration specifies data-type TYPE_FP32"), message);
    }

    @Test
    void withoutControlsTheirInputsAreCountedAsMissing() throws Exception
    {
        final String message = loadFailure("name: 'seq' backend: 'onnxruntime' " + IO + " sequence_batching {}");
        assertTrue(message.startsWith("unable to load model 'seq', configuration expects 1 inputs, model provides 3"
            + " (model inputs missing from the configuration: 'START' (TYPE_INT32 [-1,1]), 'READY' (TYPE_INT32"
            + " [-1,1]))"), message);
    }
}
