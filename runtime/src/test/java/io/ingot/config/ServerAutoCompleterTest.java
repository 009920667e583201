package io.ingot.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ingot.config.proto.ModelConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

class ServerAutoCompleterTest
{
    @TempDir
    Path versionDirectory;

    private ModelConfig completeFrom(final String pbtxt) throws ConfigException
    {
        return ServerAutoCompleter.complete(ModelConfigParser.parse(pbtxt, "a"), "m", versionDirectory);
    }

    private void file(final String name) throws IOException
    {
        Files.writeString(versionDirectory.resolve(name), "x");
    }

    private void directory(final String name) throws IOException
    {
        Files.createDirectories(versionDirectory.resolve(name));
    }

    @ParameterizedTest(name = "{0} -> {1}/{2}")
    @CsvSource({
        "model.plan, tensorrt_plan, tensorrt",
        "model.onnx, onnxruntime_onnx, onnxruntime",
        "model.pt, pytorch_libtorch, pytorch",
        "model.pt2, torch_aoti, pytorch",
        "model.graphdef, tensorflow_graphdef, tensorflow",
        "model.py, '', python",
        "model.xml, '', openvino",
    })
    void platformAndBackendFollowFromTheModelFile(final String fileName, final String platform,
        final String backend) throws Exception
    {
        file(fileName);

        final ModelConfig config = completeFrom("");

        assertEquals(platform, config.getPlatform());
        assertEquals(backend, config.getBackend());
        assertEquals(fileName, config.getDefaultModelFilename());
        assertEquals("m", config.getName());
    }

    @Test
    void directoryForms() throws Exception
    {
        directory("model.savedmodel");
        assertEquals(Platforms.TENSORFLOW_SAVEDMODEL, completeFrom("").getPlatform());
        assertEquals(Platforms.TENSORFLOW, completeFrom("").getBackend());
    }

    @Test
    void onnxModelMayBeADirectory() throws Exception
    {
        directory("model.onnx");
        final ModelConfig config = completeFrom("");
        assertEquals(Platforms.ONNXRUNTIME_ONNX, config.getPlatform());
        assertEquals(Platforms.ONNXRUNTIME, config.getBackend());
    }

    @Test
    void planMustBeAFile() throws Exception
    {
        directory("model.plan");
        final ConfigException e = assertThrows(ConfigException.class, () -> completeFrom(""));
        assertTrue(e.getMessage().contains("Could not determine backend for model 'm'"), e.getMessage());
    }

    @Test
    void platformGivesBackendAndBackendGivesPlatform() throws ConfigException
    {
        final ModelConfig fromPlatform = completeFrom("platform: \"onnxruntime_onnx\"");
        assertEquals(Platforms.ONNXRUNTIME, fromPlatform.getBackend());
        assertEquals(Platforms.ONNX_FILENAME, fromPlatform.getDefaultModelFilename());

        final ModelConfig fromBackend = completeFrom("backend: \"tensorrt\"");
        assertEquals(Platforms.TENSORRT_PLAN, fromBackend.getPlatform());
        assertEquals(Platforms.PLAN_FILENAME, fromBackend.getDefaultModelFilename());

        assertEquals(Platforms.PYTORCH_LIBTORCH, completeFrom("backend: \"pytorch\"").getPlatform());
        assertEquals(Platforms.TENSORFLOW_SAVEDMODEL,
            completeFrom("default_model_filename: \"model.savedmodel\"").getPlatform());
    }

    @Test
    void writtenFieldsWinOverFiles() throws Exception
    {
        file("model.plan");
        final ModelConfig config = completeFrom("backend: \"python\"");
        assertEquals("python", config.getBackend());
        assertEquals("", config.getPlatform());
        assertEquals(Platforms.PYTHON_FILENAME, config.getDefaultModelFilename());
    }

    @Test
    void ensembleIsLeftAlone() throws ConfigException
    {
        final ModelConfig config = completeFrom("platform: \"ensemble\"");
        assertEquals("", config.getBackend());
        assertEquals("", config.getDefaultModelFilename());
    }

    @Test
    void customBackendComesFromTheModelName() throws ConfigException
    {
        final ModelConfig config = ServerAutoCompleter.complete(ModelConfig.getDefaultInstance(), "add.identity",
            null);
        assertEquals("identity", config.getBackend());
        assertEquals("model.identity", config.getDefaultModelFilename());
    }

    @Test
    void nothingToGoOnIsAClearError()
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> completeFrom(""));
        assertEquals(ConfigException.Category.INVALID_ARG, e.category());
        assertTrue(e.getMessage().contains("Could not determine backend for model 'm'"), e.getMessage());
        assertTrue(e.getMessage().contains("No known model file"), e.getMessage());
        assertTrue(e.getMessage().contains(versionDirectory.toString()), e.getMessage());
    }

    @Test
    void pairingTableMatchesTriton()
    {
        assertTrue(Platforms.pairMatches("onnxruntime_onnx", "onnxruntime"));
        assertTrue(Platforms.pairMatches("tensorflow_graphdef", "tensorflow"));
        assertTrue(Platforms.pairMatches("torch_aoti", "pytorch"));
        assertTrue(Platforms.pairMatches("", "python"));
        assertTrue(!Platforms.pairMatches("tensorrt_plan", "onnxruntime"));
        assertTrue(!Platforms.pairMatches("", "tensorrt"));
    }
}
