package io.ingot.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.config.proto.ModelQueuePolicy;
import io.ingot.config.proto.ModelSequenceBatching;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

class ModelConfigParserTest
{
    @Test
    void parsesTritonTextFormatIncludingListAndColonFreeForms() throws ConfigException
    {
        final ModelConfig config = ModelConfigParser.parse("""
            # a comment
            name: "m"
            max_batch_size: 4
            input [ { name: "A" data_type: TYPE_FP32 dims: [ 2, 3 ] } ]
            input { name: 'B', data_type: TYPE_STRING, dims: 1 dims: 5 }
            instance_group [ { kind: KIND_CPU count: 3 } ]
            parameters { key: "K" value: { string_value: "V" } }
            """, "inline");

        assertEquals("m", config.getName());
        assertEquals(4, config.getMaxBatchSize());
        assertEquals(List.of(2L, 3L), config.getInput(0).getDimsList());
        assertEquals(DataType.TYPE_STRING, config.getInput(1).getDataType());
        assertEquals(List.of(1L, 5L), config.getInput(1).getDimsList());
        assertEquals(ModelInstanceGroup.Kind.KIND_CPU, config.getInstanceGroup(0).getKind());
        assertEquals("V", config.getParametersOrThrow("K").getStringValue());
    }

    @Test
    void unknownFieldNamesFileLineColumnAndField()
    {
        final Path file = TestResources.config("unknown_field.pbtxt");
        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigParser.parse(file));

        assertEquals(ConfigException.Category.INVALID_ARG, e.category());
        assertEquals(7, e.line());
        assertEquals(5, e.column());
        assertEquals(file.toString(), e.source().orElseThrow());
        // Triton's words first (core src/filesystem/api.cc ReadTextProto), the position Triton only logs after them.
        assertTrue(e.getMessage().startsWith("failed to read text proto from " + file + ": line 7, column 5: "),
            e.getMessage());
        assertEquals("message type \"inference.ModelInput\" has no field named \"dimz\"", e.reason());
    }

    @Test
    void badEnumValueIsLocated()
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigParser.parse(
            "name: \"m\"\ninput { name: \"A\" data_type: TYPE_FP33 }\n", "cfg.pbtxt"));

        assertEquals(2, e.line());
        assertTrue(e.reason().contains("TYPE_FP33"), e.reason());
        assertTrue(e.getMessage().startsWith("failed to read text proto from cfg.pbtxt: line 2, column "),
            e.getMessage());
    }

    @Test
    void fieldSetTwiceIsAnErrorAsInTriton()
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigParser.parse(
            "max_batch_size: 4\nmax_batch_size: 8\n", "cfg.pbtxt"));

        assertEquals(2, e.line());
        assertTrue(e.reason().contains("max_batch_size"), e.reason());
    }

    @Test
    void twoSchedulersAreAnErrorNamingBoth()
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigParser.parse(
            "dynamic_batching { }\nsequence_batching { }\n", "cfg.pbtxt"));

        assertEquals(2, e.line());
        assertTrue(e.reason().contains("sequence_batching") && e.reason().contains("dynamic_batching")
            && e.reason().contains("scheduling_choice"), e.reason());
    }

    @Test
    void unterminatedBlockIsAnError()
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigParser.parse(
            "name: \"m\"\ndynamic_batching {\n  max_queue_delay_microseconds: 10\n", "cfg.pbtxt"));

        assertEquals(ConfigException.Category.INVALID_ARG, e.category());
        assertTrue(e.line() >= 3, "line " + e.line());
    }

    @Test
    void wrongValueTypeIsAnError()
    {
        final ConfigException e = assertThrows(ConfigException.class,
            () -> ModelConfigParser.parse("max_batch_size: \"eight\"\n", "cfg.pbtxt"));

        assertEquals(1, e.line());
        assertTrue(e.reason().toLowerCase().contains("integer"), e.reason());
    }

    @Test
    void missingFileIsNotFound(@TempDir final Path dir)
    {
        final ConfigException e = assertThrows(ConfigException.class,
            () -> ModelConfigParser.parse(dir.resolve("config.pbtxt")));

        assertEquals(ConfigException.Category.NOT_FOUND, e.category());
        assertTrue(e.getMessage().contains("config.pbtxt"), e.getMessage());
    }

    @Test
    void invalidUtf8IsRejected(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("config.pbtxt");
        Files.write(file, new byte[] {'n', 'a', 'm', 'e', ':', ' ', '"', (byte) 0xC3, (byte) 0x28, '"'});

        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigParser.parse(file));

        assertEquals(ConfigException.Category.INVALID_ARG, e.category());
        assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
    }

    @Test
    void everyDynamicBatchingAndQueuePolicyFieldLoads() throws ConfigException
    {
        final ModelConfig config = ModelConfigParser.parse(TestResources.config("every_dynamic_batching_field.pbtxt"));

        final ModelDynamicBatching batching = config.getDynamicBatching();
        assertEquals(List.of(4, 8), batching.getPreferredBatchSizeList());
        assertEquals(100, batching.getMaxQueueDelayMicroseconds());
        assertFalse(batching.getPreserveOrdering());
        assertEquals(3, batching.getPriorityLevels());
        assertEquals(2, batching.getDefaultPriorityLevel());

        final ModelQueuePolicy defaults = batching.getDefaultQueuePolicy();
        assertEquals(ModelQueuePolicy.TimeoutAction.DELAY, defaults.getTimeoutAction());
        assertEquals(5000, defaults.getDefaultTimeoutMicroseconds());
        assertTrue(defaults.getAllowTimeoutOverride());
        assertEquals(64, defaults.getMaxQueueSize());

        assertEquals(2, batching.getPriorityQueuePolicyCount());
        final ModelQueuePolicy level1 = batching.getPriorityQueuePolicyOrThrow(1);
        assertEquals(ModelQueuePolicy.TimeoutAction.REJECT, level1.getTimeoutAction());
        assertEquals(1000, level1.getDefaultTimeoutMicroseconds());
        assertFalse(level1.getAllowTimeoutOverride());
        assertEquals(10, level1.getMaxQueueSize());
        final ModelQueuePolicy level3 = batching.getPriorityQueuePolicyOrThrow(3);
        assertEquals(ModelQueuePolicy.TimeoutAction.DELAY, level3.getTimeoutAction());
        assertEquals(9000, level3.getDefaultTimeoutMicroseconds());
        assertTrue(level3.getAllowTimeoutOverride());
        assertEquals(30, level3.getMaxQueueSize());

        // And the whole thing survives normalization and validation unchanged in these fields.
        final ModelConfig normalized = ConfigNormalizer.normalize(ServerAutoCompleter.complete(config, "every_field",
            null), NormalizeContext.cpuOnly());
        ConfigValidator.validate(normalized, NormalizeContext.cpuOnly());
        assertEquals(batching, normalized.getDynamicBatching());
    }

    @Test
    void fullTritonConfigLoadsAndRoundTripsThroughTextAndWire() throws Exception
    {
        final ModelConfig config = ModelConfigParser.parse(TestResources.config("full_triton_config.pbtxt"));

        assertEquals("libtriton_tensorrt.so", config.getRuntime());
        assertEquals(List.of(1L, 3L), config.getVersionPolicy().getSpecific().getVersionsList());
        assertEquals(ModelInput.Format.FORMAT_NCHW, config.getInput(0).getFormat());
        assertTrue(config.getInput(0).getIsNonLinearFormatIo());
        assertEquals(List.of(1L, -1L), config.getInput(1).getReshape().getShapeList());
        assertEquals("labels.txt", config.getOutput(0).getLabelFilename());
        assertEquals(List.of("OFFSETS"), config.getBatchInput(0).getTargetNameList());
        assertEquals(4, config.getOptimization().getCuda().getGraphSpec(0).getBatchSize());
        assertEquals(List.of(3L, 224L, 224L), config.getOptimization().getCuda().getGraphSpec(0)
            .getGraphLowerBound().getInputOrThrow("IMAGE").getDimList());
        assertEquals("FP16", config.getOptimization().getExecutionAccelerators().getGpuExecutionAccelerator(0)
            .getParametersOrThrow("precision_mode"));
        assertFalse(config.getOptimization().getInputPinnedMemory().getEnable());
        final ModelSequenceBatching sequence = config.getSequenceBatching();
        assertEquals(32, sequence.getOldest().getMaxCandidateSequences());
        assertEquals(List.of(false, true), sequence.getControlInput(2).getControl(0).getBoolFalseTrueList());
        assertTrue(sequence.getState(0).getInitialState(0).getZeroData());
        assertEquals(1, config.getInstanceGroup(0).getSecondaryDevices(0).getDeviceId());
        assertEquals(2, config.getInstanceGroup(0).getRateLimiter().getResources(0).getCount());
        assertEquals("model_sm80.plan", config.getCcModelFilenamesOrThrow("8.0"));
        assertEquals("vision", config.getMetricTagsOrThrow("team"));
        assertEquals("tokens.bin", config.getModelWarmup(0).getInputsOrThrow("TOKENS").getInputDataFile());
        assertEquals("libcustom_ops.so", config.getModelOperations().getOpLibraryFilename(0));
        assertEquals("abc", config.getModelRepositoryAgents().getAgents(0).getParametersOrThrow("MD5:model.plan"));
        assertEquals(List.of(1.0, 2.5, 10.0, 100.0),
            config.getModelMetrics().getMetricControl(0).getHistogramOptions().getBucketsList());

        assertEquals(config, ModelConfigParser.parse(config.toString(), "printed"));
        assertEquals(config, ModelConfig.parseFrom(config.toByteArray()));

        final ModelConfig normalized = ConfigNormalizer.normalize(config, NormalizeContext.withGpus(0));
        ConfigValidator.validate(normalized, NormalizeContext.withGpus(0));
    }

    @Test
    void tutorialFormMapsToExactlyTritonsOwnSyntax() throws ConfigException
    {
        final ModelConfig tutorial = ModelConfigParser.parse(TestResources.config("tutorial_priority.pbtxt"));
        final ModelConfig triton = ModelConfigParser.parse(TestResources.config("triton_priority.pbtxt"));

        assertEquals(triton, tutorial);
        final ModelDynamicBatching batching = tutorial.getDynamicBatching();
        assertEquals(3, batching.getPriorityLevels());
        assertEquals(2, batching.getDefaultPriorityLevel());
        assertEquals(10, batching.getPriorityQueuePolicyOrThrow(1).getMaxQueueSize());
        assertEquals(20, batching.getPriorityQueuePolicyOrThrow(2).getMaxQueueSize());
        assertEquals(30, batching.getPriorityQueuePolicyOrThrow(3).getMaxQueueSize());
        assertEquals(200, batching.getMaxQueueDelayMicroseconds(), "other dynamic_batching fields are kept");
    }

    @Test
    void tutorialFormCreatesDynamicBatchingWhenAbsent() throws ConfigException
    {
        final ModelConfig config = ModelConfigParser.parse("""
            name: "m"
            scheduling_policy { priority { default_priority: 0
                priority_levels [ { priority: 0 }, { priority: 1 max_queue_size: 5 } ] } }
            """, "cfg.pbtxt");

        assertTrue(config.hasDynamicBatching());
        assertEquals(2, config.getDynamicBatching().getPriorityLevels());
        assertEquals(1, config.getDynamicBatching().getDefaultPriorityLevel());
        assertFalse(config.getDynamicBatching().containsPriorityQueuePolicy(1), "no bound, no entry");
        assertEquals(5, config.getDynamicBatching().getPriorityQueuePolicyOrThrow(2).getMaxQueueSize());
    }

    @Test
    void tutorialQueueBoundKeepsTheDefaultQueuePolicysTimeout() throws ConfigException
    {
        final ModelConfig config = ModelConfigParser.parse("""
            dynamic_batching { default_queue_policy { timeout_action: DELAY default_timeout_microseconds: 700 } }
            scheduling_policy { priority { default_priority: 0 priority_levels [ { priority: 0 max_queue_size: 4 } ] } }
            """, "cfg.pbtxt");

        final ModelQueuePolicy level1 = config.getDynamicBatching().getPriorityQueuePolicyOrThrow(1);
        assertEquals(4, level1.getMaxQueueSize());
        assertEquals(700, level1.getDefaultTimeoutMicroseconds());
        assertEquals(ModelQueuePolicy.TimeoutAction.DELAY, level1.getTimeoutAction());
    }

    @Test
    void bothPriorityFormsAreRejectedNamingBoth()
    {
        final Path file = TestResources.config("both_priority_forms.pbtxt");
        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigParser.parse(file));

        assertEquals(ConfigException.Category.INVALID_ARG, e.category());
        assertTrue(e.reason().contains("scheduling_policy.priority"), e.reason());
        assertTrue(e.reason().contains("dynamic_batching.priority_levels"), e.reason());
        assertTrue(e.reason().contains("dynamic_batching.default_priority_level"), e.reason());
        assertEquals(8, e.line(), "points at scheduling_policy");
        assertEquals(1, e.column());
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
    }

    @Test
    void tutorialFormWithTritonQueuePolicyMapIsRejected()
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigParser.parse("""
            dynamic_batching { priority_queue_policy { key: 1 value { max_queue_size: 3 } } }
            scheduling_policy { priority { default_priority: 0 priority_levels [ { priority: 0 } ] } }
            """, "cfg.pbtxt"));

        assertTrue(e.reason().contains("dynamic_batching.priority_queue_policy"), e.reason());
    }

    @Test
    void tutorialFormWithAnotherSchedulerIsRejected()
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigParser.parse("""
            sequence_batching { }
            scheduling_policy { priority { default_priority: 0 priority_levels [ { priority: 0 } ] } }
            """, "cfg.pbtxt"));

        assertTrue(e.reason().contains("sequence_batching"), e.reason());
    }

    @Test
    void inconsistentTutorialFormsAreRejectedWithSpecificReasons()
    {
        assertTutorialError("scheduling_policy { }", "must contain a 'priority' block");
        assertTutorialError("scheduling_policy { priority { default_priority: 0 } }", "at least one entry");
        assertTutorialError("scheduling_policy { priority { priority_levels [ { priority: 0 } ] } }",
            "must set 'default_priority'");
        assertTutorialError(
            "scheduling_policy { priority { default_priority: 2 priority_levels [ { priority: 0 }, { priority: 1 } ] }"
                + " }",
            "'scheduling_policy.priority.default_priority' is 2 but the listed priorities run from 0 to 1");
        assertTutorialError(
            "scheduling_policy { priority { default_priority: 0 priority_levels [ { priority: 0 }, { priority: 0 } ] }"
                + " }",
            "priority_levels[1]' repeats priority 0");
        assertTutorialError(
            "scheduling_policy { priority { default_priority: 0 priority_levels [ { priority: -1 } ] } }",
            "has priority -1");
        assertTutorialError(
            "scheduling_policy { priority { default_priority: 0 priority_levels [ { max_queue_size: 3 } ] } }",
            "priority_levels[0]' must set 'priority'");
    }

    private static void assertTutorialError(final String text, final String expected)
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigParser.parse(text, "t"));
        assertTrue(e.reason().contains(expected), "expected '" + expected + "' in: " + e.reason());
        assertEquals(1, e.line());
    }

    @Test
    void configTooLargeIsRejectedBeforeReading(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("config.pbtxt");
        Files.writeString(file, "#".repeat((int) ModelConfigParser.MAX_CONFIG_BYTES + 1), StandardCharsets.UTF_8);

        final ConfigException e = assertThrows(ConfigException.class, () -> ModelConfigParser.parse(file));

        assertTrue(e.reason().contains("bytes"), e.reason());
    }
}
