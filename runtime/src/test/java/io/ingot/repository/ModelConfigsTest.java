package io.ingot.repository;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ingot.config.ConfigException;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import org.junit.jupiter.api.Test;

class ModelConfigsTest
{
    @Test
    void preparesAnInMemoryConfigLikeARepositoryModel() throws ConfigException
    {
        final ModelConfig raw = ModelConfig.newBuilder().setBackend("onnxruntime").setMaxBatchSize(8)
            .setDynamicBatching(ModelDynamicBatching.getDefaultInstance()).build();
        final boolean[] called = {false};
        final BackendAutoCompleter completer = (config, directory, versions) ->
        {
            assertNull(directory);
            assertTrue(versions.isEmpty());
            assertEquals("onnxruntime_onnx", config.getPlatform());
            called[0] = true;
            return config;
        };

        final ModelConfig config = ModelConfigs.prepare(raw, "mem", completer, NormalizeContext.cpuOnly());

        assertTrue(called[0]);
        assertEquals("mem", config.getName());
        assertEquals(8, config.getDynamicBatching().getPreferredBatchSize(0));
        assertEquals("mem", config.getInstanceGroup(0).getName());
        assertTrue(config.getVersionPolicy().hasLatest());
    }

    @Test
    void nameComesFromTheConfigWhenNotGiven() throws ConfigException
    {
        final ModelConfig config = ModelConfigs.prepare(ModelConfig.newBuilder().setName("n").setBackend("python")
            .build(), null, BackendAutoCompleter.none(), NormalizeContext.cpuOnly());
        assertEquals("n", config.getName());
    }

    @Test
    void mismatchingOrMissingNamesAreErrors()
    {
        final ConfigException mismatch = assertThrows(ConfigException.class, () -> ModelConfigs.prepare(
            ModelConfig.newBuilder().setName("a").setBackend("python").build(), "b", BackendAutoCompleter.none(),
            NormalizeContext.cpuOnly()));
        assertEquals("model configuration name 'a' does not match the model name 'b'", mismatch.getMessage());
        assertThrows(ConfigException.class, () -> ModelConfigs.prepare(ModelConfig.getDefaultInstance(), "",
            BackendAutoCompleter.none(), NormalizeContext.cpuOnly()));
    }

    @Test
    void validationFailuresSurface()
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigs.prepare(
            ModelConfig.newBuilder().setBackend("python").setMaxBatchSize(-2).build(), "neg",
            BackendAutoCompleter.none(), NormalizeContext.cpuOnly()));
        assertEquals("'max_batch_size' must be non-negative value for neg", e.getMessage());
    }

    @Test
    void aConfigWithoutBackendAndWithoutDirectoryFails()
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigs.prepare(
            ModelConfig.getDefaultInstance(), "plain", BackendAutoCompleter.none(), NormalizeContext.cpuOnly()));
        assertTrue(e.getMessage().contains("no version directory"), e.getMessage());
    }
}
