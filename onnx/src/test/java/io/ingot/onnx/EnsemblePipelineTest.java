package io.ingot.onnx;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.api.ModelStatistics;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A three-step ensemble over an ONNX Runtime model and two built-in backends, loaded from a repository on disk
 * (the ensemble found first, its composing models after it): {@code A, B → add_sub → SUM, DIFF}; {@code SUM →
 * doubler (ONNX, Y = 2X) → SUM2}; {@code DIFF → identity → D}, the branch that runs beside the ONNX step.
 */
class EnsemblePipelineTest
{
    private static void model(final Path repository, final String name, final String config) throws IOException
    {
        Files.createDirectories(repository.resolve(name).resolve("1"));
        Files.writeString(repository.resolve(name).resolve("config.pbtxt"), config);
    }

    private static MemorySegment floats(final float... values)
    {
        final MemorySegment segment = Arena.ofAuto().allocate(4L * values.length, 4);
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_FLOAT, 0, values.length);
        return segment;
    }

    @Test
    void onnxAndBuiltInStepsComputeThePipelineWithAParallelBranch(@TempDir final Path repository) throws IOException
    {
        model(repository, "a_pipeline", """
            name: "a_pipeline" platform: "ensemble" max_batch_size: 8
            input [{ name: "A" data_type: TYPE_FP32 dims: [4] }, { name: "B" data_type: TYPE_FP32 dims: [4] }]
            output [{ name: "SUM2" data_type: TYPE_FP32 dims: [4] }, { name: "D" data_type: TYPE_FP32 dims: [4] }]
            ensemble_scheduling { step [
              { model_name: "add_sub" model_version: -1 input_map { key: "INPUT0" value: "A" }
                input_map { key: "INPUT1" value: "B" } output_map { key: "OUTPUT0" value: "SUM" }
                output_map { key: "OUTPUT1" value: "DIFF" } },
              { model_name: "doubler" model_version: -1 input_map { key: "X" value: "SUM" }
                output_map { key: "Y" value: "SUM2" } },
              { model_name: "identity" model_version: -1 input_map { key: "INPUT0" value: "DIFF" }
                output_map { key: "OUTPUT0" value: "D" } }
            ] }
            """);
        model(repository, "add_sub", """
            name: "add_sub" backend: "add_sub" max_batch_size: 8
            input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [4] }, { name: "INPUT1" data_type: TYPE_FP32 dims: [4] }]
            output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [4] },
                    { name: "OUTPUT1" data_type: TYPE_FP32 dims: [4] }]
            """);
        model(repository, "identity", """
            name: "identity" backend: "identity" max_batch_size: 8
            input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [4] }]
            output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [4] }]
            """);
        model(repository, "doubler", """
            name: "doubler" platform: "onnxruntime_onnx" max_batch_size: 8
            input [{ name: "X" data_type: TYPE_FP32 dims: [-1] }]
            output [{ name: "Y" data_type: TYPE_FP32 dims: [-1] }]
            """);
        OnnxModels.doubler(repository.resolve("doubler"));
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repository).build()))
        {
            final List<ModelIndexEntry> index = core.repositoryIndex(false);
            assertEquals(4, index.stream().filter(entry -> entry.state().equals("READY")).count(), index::toString);
            for (int round = 1; round <= 3; round++)
            {
                final InferenceRequest request = new InferenceRequest("a_pipeline").id("p" + round)
                    .addInput("A", DataType.FP32, new long[] {1, 4}, floats(1, 2, 3, round))
                    .addInput("B", DataType.FP32, new long[] {1, 4}, floats(4, 3, 2, 1));
                try (InferenceResponse response = TestModels.await(core.submit(request)))
                {
                    assertTrue(response.isOk(), () -> String.valueOf(response.error()));
                    assertArrayEquals(new float[] {10, 10, 10, 2 * (round + 1)},
                        response.output("SUM2").data().toArray(ValueLayout.JAVA_FLOAT));
                    assertArrayEquals(new float[] {-3, -1, 1, round - 1},
                        response.output("D").data().toArray(ValueLayout.JAVA_FLOAT));
                }
            }
            final ModelStatistics ensemble = core.modelStatistics("a_pipeline", -1).getFirst();
            assertEquals(3, ensemble.executionCount());
            for (final String composing : List.of("add_sub", "doubler", "identity"))
            {
                assertEquals(3, core.modelStatistics(composing, -1).getFirst().inferenceStats().success().count(),
                    composing);
            }
        }
    }
}
