package io.ingot.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ingot.config.proto.ModelConfig;
import org.junit.jupiter.api.Test;

class ConfigValidatorTest
{
    private static final String IO = """
        input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]
        output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]
        """;

    /** Parses, completes, normalizes (CPU only, model "m") and validates; returns the failure message. */
    private static String failure(final String pbtxt)
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> check(pbtxt));
        assertEquals(ConfigException.Category.INVALID_ARG, e.category());
        return e.getMessage();
    }

    private static void check(final String pbtxt) throws ConfigException
    {
        final ModelConfig completed = ServerAutoCompleter.complete(ModelConfigParser.parse(pbtxt, "v"), "m", null);
        final ModelConfig config = ConfigNormalizer.normalize(completed, "m", NormalizeContext.cpuOnly());
        ConfigValidator.validate(config, NormalizeContext.cpuOnly());
    }

    @Test
    void aCompleteConfigIsValid()
    {
        assertDoesNotThrow(() -> check("backend: \"onnxruntime\" max_batch_size: 8 dynamic_batching { } " + IO));
    }

    // §1.8, message for message.

    @Test
    void negativeMaxBatchSize()
    {
        assertEquals("'max_batch_size' must be non-negative value for m",
            failure("backend: \"onnxruntime\" max_batch_size: -1 " + IO));
    }

    @Test
    void nonPositivePreferredSize()
    {
        assertEquals("dynamic batching preferred size must be positive for m",
            failure("backend: \"onnxruntime\" max_batch_size: 8 dynamic_batching { preferred_batch_size: [ 0 ] } "
                + IO));
    }

    @Test
    void preferredSizeAboveMaxBatchSize()
    {
        assertEquals("dynamic batching preferred size must be <= max batch size for m",
            failure("backend: \"onnxruntime\" max_batch_size: 8 dynamic_batching { preferred_batch_size: [ 4, 9 ] } "
                + IO));
    }

    @Test
    void defaultPriorityLevelOutOfRange()
    {
        assertEquals("default priority level must be in range [1, 3] for m", failure("backend: \"onnxruntime\" "
            + "max_batch_size: 8 dynamic_batching { priority_levels: 3 } " + IO));
        assertEquals("default priority level must be in range [1, 3] for m", failure("backend: \"onnxruntime\" "
            + "max_batch_size: 8 dynamic_batching { priority_levels: 3 default_priority_level: 4 } " + IO));
    }

    @Test
    void priorityQueuePolicyKeyOutOfRange()
    {
        final String message = "priority queue policy must have priority level in range [1, 2] for m";
        assertEquals(message, failure("backend: \"onnxruntime\" max_batch_size: 8 dynamic_batching { "
            + "priority_levels: 2 default_priority_level: 1 priority_queue_policy { key: 3 value { } } } " + IO));
        assertEquals(message, failure("backend: \"onnxruntime\" max_batch_size: 8 dynamic_batching { "
            + "priority_levels: 2 default_priority_level: 1 priority_queue_policy { key: 0 value { } } } " + IO));
    }

    @Test
    void preserveOrderingWithSeveralLevels()
    {
        assertEquals("Only one priority level is allowed when 'preserve_ordering' is true for m",
            failure("backend: \"onnxruntime\" max_batch_size: 8 dynamic_batching { preserve_ordering: true "
                + "priority_levels: 2 default_priority_level: 1 } " + IO));
    }

    @Test
    void preserveOrderingWithDelayPolicy()
    {
        final String message = "Queue policy can not have DELAY as timeout action when 'preserve_ordering' is true "
            + "for m";
        assertEquals(message, failure("backend: \"onnxruntime\" max_batch_size: 8 dynamic_batching { "
            + "preserve_ordering: true default_queue_policy { timeout_action: DELAY default_timeout_microseconds: 5 } "
            + "} " + IO));
        assertEquals(message, failure("backend: \"onnxruntime\" max_batch_size: 8 dynamic_batching { "
            + "preserve_ordering: true priority_levels: 1 default_priority_level: 1 priority_queue_policy { key: 1 "
            + "value { timeout_action: DELAY default_timeout_microseconds: 5 } } } " + IO));
        assertDoesNotThrow(() -> check("backend: \"onnxruntime\" max_batch_size: 8 dynamic_batching { "
            + "preserve_ordering: true default_queue_policy { timeout_action: DELAY } } " + IO),
            "DELAY without a timeout never fires, so Triton allows it");
    }

    @Test
    void dynamicBatchingWithMaxBatchSizeZeroIsAccepted()
    {
        assertDoesNotThrow(() -> check("backend: \"onnxruntime\" max_batch_size: 0 dynamic_batching { } " + IO));
    }

    // Structural checks.

    @Test
    void platformAndBackendMustBeKnownAndPaired()
    {
        assertEquals("unexpected platform type 'mystery' for m", failure("platform: \"mystery\" " + IO));
        final ConfigException unnormalized = assertThrows(ConfigException.class, () -> ConfigValidator.validate(
            ModelConfig.newBuilder().setName("m").build()));
        assertEquals("unexpected platform type '' for m", unnormalized.getMessage());
        assertEquals("unexpected 'platform' and 'backend' pair, got:tensorrt_plan, onnxruntime",
            failure("platform: \"tensorrt_plan\" backend: \"onnxruntime\" " + IO));
        assertEquals("Ensemble model 'm' must have platform type 'ensemble' and empty backend type",
            failure("platform: \"ensemble\" backend: \"python\" " + IO));
        assertDoesNotThrow(() -> check("platform: \"anything\" backend: \"python\" " + IO),
            "a backend Triton does not know goes with any platform");
    }

    @Test
    void tensorNamesMustBeNonEmptyAndUnique()
    {
        assertEquals("model input must specify 'name' for m",
            failure("backend: \"python\" input [ { data_type: TYPE_FP32 dims: [ 1 ] } ]"));
        assertEquals("model output must specify 'name' for m",
            failure("backend: \"python\" output [ { data_type: TYPE_FP32 dims: [ 1 ] } ]"));
        assertEquals("model input 'IN' is specified more than once for m", failure("backend: \"python\" input [ "
            + "{ name: \"IN\" data_type: TYPE_FP32 dims: [ 1 ] }, { name: \"IN\" data_type: TYPE_INT8 dims: [ 1 ] }"
            + " ]"));
        assertEquals("model output 'OUT' is specified more than once for m", failure("backend: \"python\" output [ "
            + "{ name: \"OUT\" data_type: TYPE_FP32 dims: [ 1 ] }, { name: \"OUT\" data_type: TYPE_FP32 dims: [ 2 ] }"
            + " ]"));
    }

    @Test
    void dataTypeMustBeSet()
    {
        assertEquals("model input 'IN' must specify 'data_type' for m",
            failure("backend: \"python\" input [ { name: \"IN\" dims: [ 1 ] } ]"));
    }

    @Test
    void dimsMustBeNonEmptyAndPositiveOrWildcard()
    {
        assertEquals("model output 'OUT' must specify 'dims' for m",
            failure("backend: \"python\" output [ { name: \"OUT\" data_type: TYPE_FP32 } ]"));
        final String message = "model input 'IN' dimension must be integer >= 1, or -1 to indicate a "
            + "variable-size dimension for m";
        assertEquals(message,
            failure("backend: \"python\" input [ { name: \"IN\" data_type: TYPE_FP32 dims: [ 0 ] } ]"));
        assertEquals(message,
            failure("backend: \"python\" input [ { name: \"IN\" data_type: TYPE_FP32 dims: [ 2, -2 ] } ]"));
        assertDoesNotThrow(
            () -> check("backend: \"python\" input [ { name: \"IN\" data_type: TYPE_FP32 dims: [ -1, 3 ] } ]"));
    }

    @Test
    void reshapeMustKeepTheElementCount()
    {
        assertEquals("model input 'IN' has different size for dims and reshape for m", failure("backend: \"python\" "
            + "input [ { name: \"IN\" data_type: TYPE_FP32 dims: [ 2, 3 ] reshape { shape: [ 5 ] } } ]"));
        assertDoesNotThrow(() -> check("backend: \"python\" input [ { name: \"IN\" data_type: TYPE_FP32 "
            + "dims: [ 2, 3 ] reshape { shape: [ 3, 2 ] } } ]"));
        assertDoesNotThrow(() -> check("backend: \"python\" max_batch_size: 2 input [ { name: \"IN\" "
            + "data_type: TYPE_FP32 dims: [ 1 ] reshape { shape: [ ] } } ]"), "scalar reshape of one element");
        assertDoesNotThrow(() -> check("backend: \"python\" input [ { name: \"IN\" data_type: TYPE_FP32 "
            + "dims: [ 2, 4, -1, 6 ] reshape { shape: [ 8, -1, 1, 6 ] } } ]"), "runs between wildcards match");
        assertEquals("model input 'IN' has different size for dims and reshape for m", failure("backend: \"python\" "
            + "input [ { name: \"IN\" data_type: TYPE_FP32 dims: [ 2, -1 ] reshape { shape: [ 3, -1 ] } } ]"));
        assertEquals("model input 'IN' has different number of variable-size dimensions for dims and reshape for m",
            failure("backend: \"python\" input [ { name: \"IN\" data_type: TYPE_FP32 dims: [ -1, -1 ] "
                + "reshape { shape: [ -1 ] } } ]"));
        assertEquals("model input 'IN' cannot have empty reshape for non-batching model as scalar tensors are not "
            + "supported for m", failure("backend: \"python\" input [ { name: \"IN\" data_type: TYPE_FP32 "
            + "dims: [ 1 ] reshape { } } ]"));
    }

    @Test
    void imageFormatsNeedThreeDims()
    {
        assertEquals("model input NHWC/NCHW require 3 dims for m", failure("backend: \"python\" input [ { "
            + "name: \"IN\" data_type: TYPE_FP32 format: FORMAT_NHWC dims: [ 224, 224 ] } ]"));
    }

    @Test
    void shapeTensorsAreTensorRtOnly()
    {
        assertEquals("shape tensors are only supported for TensorRT platform for m", failure("backend: \"python\" "
            + "input [ { name: \"IN\" data_type: TYPE_INT32 dims: [ 2 ] is_shape_tensor: true } ]"));
    }

    @Test
    void instanceGroupsAreChecked()
    {
        assertEquals("instance group m_0 of model m has kind KIND_CPU but specifies one or more GPUs",
            failure("backend: \"python\" instance_group [ { kind: KIND_CPU gpus: [ 0 ] } ]"));
        assertEquals("instance group m_0 of model m has kind KIND_GPU but no GPUs are available",
            failure("backend: \"python\" instance_group [ { kind: KIND_GPU } ]"));
        assertEquals("instance group m_0 of model m and platform  specifies profile field which is only supported "
            + "for TensorRT"
            + " models", failure("backend: \"python\" instance_group [ { kind: KIND_CPU profile: \"0\" } ]"));
    }

    @Test
    void gpuIdsMustExistOnTheMachine() throws ConfigException
    {
        final ModelConfig config = ConfigNormalizer.normalize(ModelConfigParser.parse(
            "backend: \"python\" instance_group [ { kind: KIND_GPU gpus: [ 3 ] } ]", "v"), "m",
            NormalizeContext.withGpus(0, 1));
        final ConfigException e = assertThrows(ConfigException.class,
            () -> ConfigValidator.validate(config, NormalizeContext.withGpus(0, 1)));
        assertEquals("instance group m_0 of model m specifies invalid or unsupported gpu id 3. GPUs with at least the"
            + " minimum required CUDA compute compatibility (Ingot uses every GPU the CUDA runtime reports) are: 0, 1",
            e.getMessage());
        assertDoesNotThrow(() -> ConfigValidator.validate(config), "without a context the ids are not checked");
    }

    @Test
    void instanceCountMustBePositiveInAValidatedConfig()
    {
        final ModelConfig config = ModelConfig.newBuilder().setName("m").setBackend("python")
            .setVersionPolicy(io.ingot.config.proto.ModelVersionPolicy.newBuilder()
                .setAll(io.ingot.config.proto.ModelVersionPolicy.All.getDefaultInstance()))
            .addInstanceGroup(io.ingot.config.proto.ModelInstanceGroup.newBuilder().setName("g")
                .setKind(io.ingot.config.proto.ModelInstanceGroup.Kind.KIND_CPU).setCount(0))
            .build();
        final ConfigException e = assertThrows(ConfigException.class, () -> ConfigValidator.validate(config));
        assertEquals("instance group g of model m must have 'count' >= 1, got 0", e.getMessage());
    }

    @Test
    void unnormalizedConfigIsRejected()
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> ConfigValidator.validate(
            ModelConfig.newBuilder().setName("m").setBackend("python").build()));
        assertEquals("must specify 'version policy' for m", e.getMessage());
    }

    @Test
    void specificVersionPolicyMustListVersions()
    {
        assertEquals("'version_policy.specific' of model 'm' must list at least one version in 'versions'",
            failure("backend: \"python\" version_policy { specific { } }"));
    }

    @Test
    void sequenceControlsAreChecked()
    {
        assertEquals("sequence batching control 'int32_false_true' must have exactly 2 entries for "
            + "CONTROL_SEQUENCE_START for m", failure("backend: \"python\" sequence_batching { control_input [ { "
            + "name: \"S\" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 1 ] } ] } ] }"));
        assertEquals("sequence batching specifies multiple CONTROL_SEQUENCE_END tensors for m",
            failure("backend: \"python\" sequence_batching { control_input [ "
                + "{ name: \"A\" control [ { kind: CONTROL_SEQUENCE_END bool_false_true: [ false, true ] } ] }, "
                + "{ name: \"B\" control [ { kind: CONTROL_SEQUENCE_END bool_false_true: [ false, true ] } ] } ] }"));
        assertEquals("unexpected data type for control CONTROL_SEQUENCE_CORRID for m. Allowed data types are "
            + "TYPE_UINT64, TYPE_INT64, TYPE_UINT32, TYPE_INT32 and TYPE_STRING", failure("backend: \"python\" "
            + "sequence_batching { control_input [ { name: \"C\" control [ { kind: CONTROL_SEQUENCE_CORRID "
            + "data_type: TYPE_FP32 } ] } ] }"));
        assertEquals("sequence batching preferred batch size must be <= max batch size for m",
            failure("backend: \"python\" max_batch_size: 2 sequence_batching { oldest { preferred_batch_size: 4 } }"));
    }

    @Test
    void ensemblesAreChecked() throws ConfigException
    {
        final ModelConfig ensemble = ModelConfigParser.parse(TestResources.config("ensemble.pbtxt"));
        final ModelConfig normalized = ConfigNormalizer.normalize(ensemble, NormalizeContext.cpuOnly());
        assertDoesNotThrow(() -> ConfigValidator.validate(normalized));

        assertEquals("ensemble scheduling must be set for ensemble m whose platform is ensemble",
            failure("platform: \"ensemble\""));
        final String dangling = """
            platform: "ensemble"
            input [ { name: "RAW" data_type: TYPE_FP32 dims: [ 1 ] } ]
            output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 1 ] } ]
            ensemble_scheduling { step [
              { model_name: "a" input_map { key: "I" value: "RAW" } output_map { key: "O" value: "mid" } },
              { model_name: "b" input_map { key: "I" value: "other" } output_map { key: "O" value: "OUT" } } ] }
            """;
        assertEquals("output 'OUT' for ensemble 'm' is not written: at least one of its depending tensors, "
            + "'other', is not connected", failure(dangling));
        // Triton's text, its unbalanced quote included (core model_config_utils.cc ValidateEnsembleSchedulingConfig).
        assertEquals("ensemble input 'SPARE' for ensemble m' is not used", failure(dangling.replace("input [",
            "input [ { name: \"SPARE\" data_type: TYPE_FP32 dims: [ 1 ] },")));
        assertEquals("ensemble output 'EXTRA' for ensemble m' is not used", failure(dangling.replace("output [",
            "output [ { name: \"EXTRA\" data_type: TYPE_FP32 dims: [ 1 ] },").replace("\"other\"", "\"mid\"")));
    }

    @Test
    void filesMustStayInsideTheModelDirectory()
    {
        assertEquals("'default_model_filename' of model 'm' must be a relative path inside the model directory, "
            + "got '../../etc/passwd'", failure("backend: \"python\" default_model_filename: \"../../etc/passwd\""));
        assertEquals("'label_filename' of output 'OUT' of model 'm' must be a relative path inside the model "
            + "directory, got '/etc/passwd'", failure("backend: \"python\" output [ { name: \"OUT\" "
            + "data_type: TYPE_FP32 dims: [ 1 ] label_filename: \"/etc/passwd\" } ]"));
        assertDoesNotThrow(() -> check("backend: \"python\" default_model_filename: \"sub/model.py\""));
    }

    @Test
    void decoupledModelsCannotUseTheResponseCache()
    {
        assertEquals("Response Cache does not currently support model m with 'decoupled' transaction policy. "
            + "Please disable the response cache.", failure("backend: \"python\" model_transaction_policy { "
            + "decoupled: true } response_cache { enable: true }"));
    }

    @Test
    void integerFieldsBeyondWhatIngotHoldsAreRefusedWithTheRange()
    {
        // Triton accepts any non-negative max_batch_size (model_config_utils.cc ValidateModelConfig); Ingot states
        // its own bound instead of failing later for want of memory.
        assertDoesNotThrow(() -> check("backend: \"onnxruntime\" max_batch_size: 65536 " + IO));
        assertEquals("'max_batch_size' must be at most 65536 for m, got 2147483647 (Ingot sizes per-batch-size"
            + " statistics and each instance's batch slots by it)",
            failure("backend: \"onnxruntime\" max_batch_size: 2147483647 " + IO));
        assertDoesNotThrow(() -> check("backend: \"python\" instance_group [ { count: 1000 kind: KIND_CPU },"
            + " { count: 24 kind: KIND_CPU } ]"));
        assertEquals("instance group m_1 of model m has 'count' 25: a model version may have at most 1024 instances"
            + " in Ingot (each runs a thread of its own), and the groups' 'count' (times their GPUs) add up to 1025"
            + " or more", failure("backend: \"python\" instance_group [ { count: 1000 kind: KIND_CPU },"
            + " { count: 25 kind: KIND_CPU } ]"));
    }
}
