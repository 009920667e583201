package io.ingot.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.config.proto.ModelInstanceGroup.Kind;
import org.junit.jupiter.api.Test;

import java.util.List;

class ConfigNormalizerTest
{
    private static ModelConfig normalize(final String pbtxt, final NormalizeContext context) throws ConfigException
    {
        return ConfigNormalizer.normalize(ModelConfigParser.parse(pbtxt, "n"), "m", context);
    }

    private static ModelConfig normalize(final String pbtxt) throws ConfigException
    {
        return normalize(pbtxt, NormalizeContext.cpuOnly());
    }

    @Test
    void nameComesFromTheModelName() throws ConfigException
    {
        assertEquals("m", normalize("backend: \"python\"").getName());
    }

    @Test
    void aDifferentNameIsAnError()
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> normalize("name: \"other\""));
        assertEquals(ConfigException.Category.INVALID_ARG, e.category());
        assertTrue(e.getMessage().contains("'other'") && e.getMessage().contains("'m'"), e.getMessage());
    }

    @Test
    void normalizingWithoutAnyNameIsAnError()
    {
        final ConfigException e = assertThrows(ConfigException.class,
            () -> ConfigNormalizer.normalize(ModelConfig.getDefaultInstance(), NormalizeContext.cpuOnly()));
        assertEquals("model configuration must specify 'name'", e.getMessage());
    }

    @Test
    void versionPolicyDefaultsToLatestOne() throws ConfigException
    {
        final ModelConfig config = normalize("");
        assertTrue(config.getVersionPolicy().hasLatest());
        assertEquals(1, config.getVersionPolicy().getLatest().getNumVersions());
        assertTrue(normalize("version_policy { all { } }").getVersionPolicy().hasAll(), "a given policy is kept");
    }

    @Test
    void emptyPreferredSizesBecomeMaxBatchSize() throws ConfigException
    {
        assertEquals(List.of(8), normalize("max_batch_size: 8 dynamic_batching { }").getDynamicBatching()
            .getPreferredBatchSizeList());
        assertEquals(List.of(2, 4), normalize("max_batch_size: 8 dynamic_batching { preferred_batch_size: [2, 4] }")
            .getDynamicBatching().getPreferredBatchSizeList(), "given sizes are kept");
        assertEquals(List.of(), normalize("max_batch_size: 0 dynamic_batching { }").getDynamicBatching()
            .getPreferredBatchSizeList(), "max_batch_size 0 adds nothing");
    }

    @Test
    void sequenceIdleDefaultsToOneSecondAndOldestGetsPreferredSizes() throws ConfigException
    {
        final ModelConfig config = normalize("max_batch_size: 4 sequence_batching { oldest { } }");
        assertEquals(1_000_000, config.getSequenceBatching().getMaxSequenceIdleMicroseconds());
        assertEquals(List.of(4), config.getSequenceBatching().getOldest().getPreferredBatchSizeList());
        assertEquals(7, normalize("sequence_batching { max_sequence_idle_microseconds: 7 }").getSequenceBatching()
            .getMaxSequenceIdleMicroseconds());
    }

    @Test
    void pinnedMemoryDefaultsToEnabledButNotForEnsembles() throws ConfigException
    {
        final ModelConfig config = normalize("");
        assertTrue(config.getOptimization().getInputPinnedMemory().getEnable());
        assertTrue(config.getOptimization().getOutputPinnedMemory().getEnable());
        assertFalse(normalize("optimization { input_pinned_memory { enable: false } }").getOptimization()
            .getInputPinnedMemory().getEnable(), "an explicit false is kept");

        final ModelConfig ensemble = normalize("platform: \"ensemble\" ensemble_scheduling { }");
        assertFalse(ensemble.hasOptimization());
        assertEquals(0, ensemble.getInstanceGroupCount());
    }

    @Test
    void oneGroupNamedAfterTheModelIsCreatedWhenNoneIsGiven() throws ConfigException
    {
        final ModelConfig config = normalize("backend: \"pytorch\"");
        assertEquals(1, config.getInstanceGroupCount());
        final ModelInstanceGroup group = config.getInstanceGroup(0);
        assertEquals("m", group.getName());
        assertEquals(Kind.KIND_CPU, group.getKind());
        assertEquals(1, group.getCount());
    }

    @Test
    void unnamedGroupsAreNamedByIndex() throws ConfigException
    {
        final ModelConfig config = normalize("instance_group [ { kind: KIND_CPU }, { name: \"x\" kind: KIND_CPU }, "
            + "{ kind: KIND_CPU } ]");
        assertEquals(List.of("m_0", "x", "m_2"),
            config.getInstanceGroupList().stream().map(ModelInstanceGroup::getName).toList());
    }

    @Test
    void defaultCountIsTwoForCpuGroupsOfOnnxRuntimeAndTensorFlowOnly() throws ConfigException
    {
        assertEquals(2, normalize("backend: \"onnxruntime\" instance_group [ { kind: KIND_CPU } ]")
            .getInstanceGroup(0).getCount());
        assertEquals(2, normalize("backend: \"tensorflow\" instance_group [ { kind: KIND_CPU } ]")
            .getInstanceGroup(0).getCount());
        assertEquals(1, normalize("backend: \"pytorch\" instance_group [ { kind: KIND_CPU } ]")
            .getInstanceGroup(0).getCount());
        assertEquals(1, normalize("backend: \"onnxruntime\" instance_group [ { kind: KIND_GPU } ]",
            NormalizeContext.withGpus(0)).getInstanceGroup(0).getCount());
        assertEquals(2, normalize("backend: \"onnxruntime\"").getInstanceGroup(0).getCount(),
            "the auto-created group resolves to CPU first, then gets the CPU default");
        assertEquals(3, normalize("backend: \"onnxruntime\" instance_group [ { kind: KIND_CPU count: 3 } ]")
            .getInstanceGroup(0).getCount(), "an explicit count is kept");
    }

    @Test
    void kindAutoBecomesGpuWhenEveryListedGpuExists() throws ConfigException
    {
        final NormalizeContext twoGpus = NormalizeContext.withGpus(1, 0);
        final ModelInstanceGroup all = normalize("instance_group [ { count: 2 } ]", twoGpus).getInstanceGroup(0);
        assertEquals(Kind.KIND_GPU, all.getKind());
        assertEquals(List.of(0, 1), all.getGpusList(), "all GPUs, ascending");

        final ModelInstanceGroup listed = normalize("instance_group [ { gpus: [ 1 ] } ]", twoGpus)
            .getInstanceGroup(0);
        assertEquals(Kind.KIND_GPU, listed.getKind());
        assertEquals(List.of(1), listed.getGpusList());
    }

    @Test
    void kindAutoBecomesCpuWithoutGpusOrWhenAListedGpuIsMissing() throws ConfigException
    {
        assertEquals(Kind.KIND_CPU, normalize("instance_group [ { } ]").getInstanceGroup(0).getKind());
        final ModelInstanceGroup missing = normalize("instance_group [ { gpus: [ 0, 3 ] } ]",
            NormalizeContext.withGpus(0, 1)).getInstanceGroup(0);
        assertEquals(Kind.KIND_CPU, missing.getKind());
    }

    @Test
    void gpuGroupsWithoutGpusGetEveryGpu() throws ConfigException
    {
        assertEquals(List.of(0, 1, 2), normalize("instance_group [ { kind: KIND_GPU } ]",
            NormalizeContext.withGpus(2, 0, 1)).getInstanceGroup(0).getGpusList());
        assertEquals(List.of(), normalize("instance_group [ { kind: KIND_CPU } ]",
            NormalizeContext.withGpus(0)).getInstanceGroup(0).getGpusList(), "CPU groups get none");
    }

    @Test
    void normalizationIsIdempotent() throws ConfigException
    {
        final ModelConfig once = normalize("max_batch_size: 4 dynamic_batching { } instance_group [ { } ]",
            NormalizeContext.withGpus(0));
        assertEquals(once, ConfigNormalizer.normalize(once, NormalizeContext.withGpus(0)));
    }
}
