package io.ingot.onnx;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.backend.ModelVersion;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OnnxBackendFactoryTest
{
    @TempDir
    Path directory;

    private final OnnxBackendFactory factory = new OnnxBackendFactory();

    @Test
    void isFoundByServiceLoaderUnderTritonsNames()
    {
        final BackendFactory found = ServiceLoader.load(BackendFactory.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(candidate -> candidate.name().equals("onnxruntime"))
            .findFirst().orElseThrow();
        assertEquals(java.util.Set.of("onnxruntime_onnx"), found.platforms());
    }

    @Test
    void namesTheModelAndPathOfAMissingFile()
    {
        final ModelConfig config = TestModels.config("name: \"ghost\" backend: \"onnxruntime\"");
        final Path missing = directory.resolve("1").resolve("model.onnx");
        final ModelLoadException error = assertThrows(ModelLoadException.class,
            () -> factory.load(TestModels.context(config, missing)));
        assertTrue(error.getMessage().startsWith("model 'ghost' version 1: model file '"), error.getMessage());
        assertTrue(error.getMessage().contains(missing.toAbsolutePath().toString()), error.getMessage());
    }

    @Test
    void namesTheModelOfACorruptFile() throws Exception
    {
        final Path file = directory.resolve("1").resolve("model.onnx");
        Files.createDirectories(file.getParent());
        Files.write(file, "this is not a protobuf model at all".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        final ModelConfig config = TestModels.config("name: \"broken\" backend: \"onnxruntime\"");
        final ModelLoadException error = assertThrows(ModelLoadException.class,
            () -> factory.load(TestModels.context(config, file)));
        assertTrue(error.getMessage().startsWith("model 'broken' version 1: ONNX Runtime cannot load '"),
            error.getMessage());
    }

    @Test
    void listsEveryDisagreementBetweenConfigurationAndModel() throws Exception
    {
        final Path file = OnnxModels.addSub(directory);
        final ModelConfig config = TestModels.config("""
            name: "add_sub" backend: "onnxruntime" max_batch_size: 8
            input { name: "A" data_type: TYPE_INT32 dims: [4] }
            input { name: "C" data_type: TYPE_FP32 dims: [4] }
            output { name: "SUM" data_type: TYPE_FP32 dims: [5] }
            """);
        final String message = assertThrows(ModelLoadException.class,
            () -> factory.load(TestModels.context(config, file))).getMessage();
        assertTrue(message.startsWith("model 'add_sub' version 1: the configuration disagrees with model.onnx: "),
            message);
        assertTrue(message.contains("input 'A': the configuration says TYPE_INT32, the model has TYPE_FP32"), message);
        assertTrue(message.contains("configuration input 'C' is not an input of the model (its inputs are 'A', 'B')"),
            message);
        assertTrue(message.contains("model input 'B' (TYPE_FP32 [-1,4]) is missing from the configuration"), message);
        assertTrue(message.contains("output 'SUM': the configuration's dims [5] (after the batch dimension) do not"
            + " match the model's shape [-1,4]"), message);
    }

    @Test
    void rejectsBatchingForAModelWithoutABatchDimension() throws Exception
    {
        final Path file = OnnxModels.fixedRelu(directory);
        final ModelConfig config = TestModels.config("""
            name: "relu" backend: "onnxruntime" max_batch_size: 4
            input { name: "X" data_type: TYPE_FP32 dims: [2] }
            output { name: "Y" data_type: TYPE_FP32 dims: [2] }
            """);
        final String message = assertThrows(ModelLoadException.class,
            () -> factory.load(TestModels.context(config, file))).getMessage();
        assertTrue(message.contains("input 'X': max_batch_size is 4 but the model's shape [2,2] has no dynamic first"
            + " (batch) dimension"), message);
    }

    @Test
    void acceptsAnyConfiguredSizeForADynamicInputDimension() throws Exception
    {
        final Path file = OnnxModels.doubler(directory);
        final ModelConfig config = TestModels.config("""
            name: "doubler" backend: "onnxruntime" max_batch_size: 4
            input { name: "X" data_type: TYPE_FP32 dims: [16] }
            output { name: "Y" data_type: TYPE_FP32 dims: [-1] }
            """);
        try (Backend backend = factory.load(TestModels.context(config, file)))
        {
            assertTrue(backend.toString().contains("doubler"));
        }
    }

    @Test
    void sharesOneSessionOrOpensOnePerInstanceAsConfigured() throws Exception
    {
        final Path file = OnnxModels.addSub(directory);
        for (final boolean share : new boolean[] {true, false})
        {
            final ModelConfig config = TestModels.config("""
                name: "add_sub" backend: "onnxruntime" max_batch_size: 8
                input { name: "A" data_type: TYPE_FP32 dims: [4] }
                input { name: "B" data_type: TYPE_FP32 dims: [4] }
                output { name: "SUM" data_type: TYPE_FP32 dims: [4] }
                parameters { key: "share_session_between_instances" value { string_value: "%s" } }
                """.formatted(share));
            final var context = TestModels.context(config, file);
            try (OnnxBackend backend = (OnnxBackend) factory.load(context))
            {
                assertEquals(share, backend.settings().shareSession());
                final OnnxEngine first = (OnnxEngine) backend.createEngine(instance(context, 0));
                final OnnxEngine second = (OnnxEngine) backend.createEngine(instance(context, 1));
                assertEquals(share, first.session() == second.session(), "share=" + share);
                first.close();
                second.close();
            }
        }
    }

    private static InstanceContext instance(final ModelContext context, final int index)
    {
        return new InstanceContext(context, context.modelName() + "_" + index, index,
            ModelInstanceGroup.Kind.KIND_CPU, -1, List.of());
    }

    @Test
    void autoCompletesAnEmptyConfigurationLikeTriton() throws Exception
    {
        final Path file = OnnxModels.addSub(directory);
        final ModelConfig completed = factory.autoComplete(
            TestModels.config("name: \"add_sub\" platform: \"onnxruntime_onnx\""), directory,
            List.of(new ModelVersion(1, file.getParent(), file)));

        assertEquals(OnnxAutoComplete.DEFAULT_MAX_BATCH_SIZE, completed.getMaxBatchSize());
        assertTrue(completed.hasDynamicBatching());
        assertEquals(List.of("A", "B"), completed.getInputList().stream().map(i -> i.getName()).toList());
        assertEquals(List.of("SUM", "DIFF"), completed.getOutputList().stream().map(o -> o.getName()).toList());
        assertEquals(DataType.TYPE_FP32, completed.getInput(0).getDataType());
        assertEquals(List.of(4L), completed.getInput(0).getDimsList());
        assertEquals(List.of(4L), completed.getOutput(1).getDimsList());
    }

    @Test
    void autoCompletesOnlyWhatIsMissing() throws Exception
    {
        final Path file = OnnxModels.addSub(directory);
        final ModelConfig partial = TestModels.config("""
            name: "add_sub" backend: "onnxruntime" max_batch_size: 2
            sequence_batching { }
            input { name: "B" data_type: TYPE_FP32 dims: [4] }
            input { name: "A" data_type: TYPE_FP32 dims: [4] }
            """);
        final ModelConfig completed = factory.autoComplete(partial, directory,
            List.of(new ModelVersion(1, file.getParent(), file)));
        assertEquals(2, completed.getMaxBatchSize());
        assertFalse(completed.hasDynamicBatching(), "a model with a scheduler keeps it");
        assertEquals("B", completed.getInput(0).getName());
        assertEquals(2, completed.getOutputCount());

        final ModelConfig full = partial.toBuilder().clearSequenceBatching()
            .addAllOutput(completed.getOutputList()).build();
        assertSame(full, factory.autoComplete(full, directory, List.of(new ModelVersion(1, file.getParent(), file))));
    }

    @Test
    void autoCompletesAModelThatCannotBatchWithoutBatching() throws Exception
    {
        final Path file = OnnxModels.fixedRelu(directory);
        final List<ModelVersion> versions = List.of(new ModelVersion(1, file.getParent(), file));
        final ModelConfig completed = factory.autoComplete(TestModels.config("name: \"relu\""), directory, versions);
        assertEquals(0, completed.getMaxBatchSize());
        assertFalse(completed.hasDynamicBatching());
        assertEquals(List.of(2L, 2L), completed.getInput(0).getDimsList());

        final ModelLoadException error = assertThrows(ModelLoadException.class,
            () -> factory.autoComplete(TestModels.config("name: \"relu\" max_batch_size: 8"), directory, versions));
        assertTrue(error.getMessage().startsWith("autofill failed for model 'relu': max_batch_size is 8 but the model"
            + " does not support batching"), error.getMessage());
    }

    @Test
    void autoCompleteNamesTheModelOfAMissingFile()
    {
        final Path file = directory.resolve("1").resolve("model.onnx");
        final ModelLoadException error = assertThrows(ModelLoadException.class,
            () -> factory.autoComplete(TestModels.config("name: \"nothing\""), directory,
                List.of(new ModelVersion(1, file.getParent(), file))));
        assertTrue(error.getMessage().startsWith("model 'nothing' version 1: model file '"), error.getMessage());
    }
}
