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

    /** @return the message of the load failure of {@code config} over {@code file} */
    private String loadFailure(final ModelConfig config, final Path file)
    {
        return assertThrows(ModelLoadException.class, () -> factory.load(TestModels.context(config, file)))
            .getMessage();
    }

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

    // The messages below are Triton's ONNX Runtime backend's (onnxruntime_backend src/onnxruntime.cc
    // ValidateInputs/ValidateOutputs, src/onnxruntime_utils.cc CompareDimsSupported), word for word; Triton stops at
    // the first, Ingot lists the others after it.

    @Test
    void listsEveryDisagreementBetweenConfigurationAndModelTritonsFirst() throws Exception
    {
        final Path file = OnnxModels.addSub(directory);
        final ModelConfig config = TestModels.config("""
            name: "add_sub" backend: "onnxruntime" max_batch_size: 8
            input { name: "A" data_type: TYPE_INT32 dims: [4] }
            input { name: "C" data_type: TYPE_FP32 dims: [4] }
            output { name: "SUM" data_type: TYPE_FP32 dims: [5] }
            """);
        final String message = loadFailure(config, file);
        assertTrue(message.startsWith("unable to load model 'add_sub', configuration expects datatype TYPE_INT32 for"
            + " input 'A', model provides TYPE_FP32; "), message);
        assertTrue(message.contains("; unexpected inference input 'C', allowed inputs are: A, B; "), message);
        assertTrue(message.contains("; model 'add_sub', tensor 'SUM': the model expects 2 dimensions (shape [-1,4])"
            + " but the model configuration specifies 2 dimensions (an initial batch dimension because"
            + " max_batch_size > 0 followed by the explicit tensor shape, making complete shape [-1,5])"), message);
        assertTrue(message.endsWith(" (model 'add_sub' version 1, model.onnx)"), message);
    }

    @Test
    void tooFewInputsInTheConfigurationAreCountedAsTritonCountsThem() throws Exception
    {
        final Path file = OnnxModels.addSub(directory);
        final ModelConfig config = TestModels.config("""
            name: "add_sub" backend: "onnxruntime" max_batch_size: 8
            input { name: "A" data_type: TYPE_FP32 dims: [4] }
            output { name: "SUM" data_type: TYPE_FP32 dims: [4] }
            """);
        final String message = loadFailure(config, file);
        assertEquals("unable to load model 'add_sub', configuration expects 1 inputs, model provides 2 (model inputs"
            + " missing from the configuration: 'B' (TYPE_FP32 [-1,4])) (model 'add_sub' version 1, model.onnx)",
            message);
    }

    @Test
    void wrongDimsWithoutBatchingAreComparedAsTheyAre() throws Exception
    {
        final Path file = OnnxModels.fixedRelu(directory);
        final ModelConfig config = TestModels.config("""
            name: "relu" backend: "onnxruntime" max_batch_size: 0
            input { name: "X" data_type: TYPE_FP32 dims: [2, 3] }
            output { name: "Y" data_type: TYPE_FP32 dims: [2, 2] }
            """);
        final String message = loadFailure(config, file);
        assertTrue(message.startsWith("model 'relu', tensor 'X': the model expects 2 dimensions (shape [2,2]) but the"
            + " model configuration specifies 2 dimensions (shape [2,3])"), message);
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
        final String message = loadFailure(config, file);
        assertTrue(message.startsWith("model 'relu', tensor 'X': for the model to support batching the shape should"
            + " have at least 1 dimension and the first dimension must be -1; but shape expected by the model is"
            + " [2,2] (set max_batch_size: 0, or export the model with a dynamic batch axis)"), message);
    }

    @Test
    void outputDimsMustMatchExactlyWhereTheModelsAreDynamic() throws Exception
    {
        final Path file = OnnxModels.doubler(directory);
        final ModelConfig config = TestModels.config("""
            name: "doubler" backend: "onnxruntime" max_batch_size: 4
            input { name: "X" data_type: TYPE_FP32 dims: [16] }
            output { name: "Y" data_type: TYPE_FP32 dims: [16] }
            output { name: "Z" data_type: TYPE_FP32 dims: [16] }
            """);
        final String message = loadFailure(config, file);
        assertTrue(message.startsWith("model 'doubler', tensor 'Y': the model expects 2 dimensions (shape [-1,-1])"
            + " but the model configuration specifies 2 dimensions"), message);
        assertTrue(message.contains("; unexpected inference output 'Z', allowed outputs are: Y"), message);
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
        assertTrue(error.getMessage().startsWith("autofill failed for model 'relu': model does not support batching"
            + " while non-zero max_batch_size is specified (max_batch_size is 8;"), error.getMessage());
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
