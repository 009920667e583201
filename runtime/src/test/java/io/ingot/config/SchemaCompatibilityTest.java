package io.ingot.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelConfigProto;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.config.proto.ModelQueuePolicy;
import org.junit.jupiter.api.Test;

/**
 * Pins the schema to Triton's field names, numbers and types (the tables of the scheduling reference, §1), so a
 * renumbering that would silently break wire compatibility fails here.
 */
class SchemaCompatibilityTest
{
    /** {@code Message.field number type}; type is the proto type name, "map" for maps. */
    private static final String[] FIELDS = {
        "ModelConfig.name 1 string", "ModelConfig.platform 2 string", "ModelConfig.version_policy 3 message",
        "ModelConfig.max_batch_size 4 int32", "ModelConfig.input 5 message", "ModelConfig.output 6 message",
        "ModelConfig.instance_group 7 message", "ModelConfig.default_model_filename 8 string",
        "ModelConfig.cc_model_filenames 9 map", "ModelConfig.metric_tags 10 map",
        "ModelConfig.dynamic_batching 11 message", "ModelConfig.optimization 12 message",
        "ModelConfig.sequence_batching 13 message", "ModelConfig.parameters 14 map",
        "ModelConfig.ensemble_scheduling 15 message", "ModelConfig.model_warmup 16 message",
        "ModelConfig.backend 17 string", "ModelConfig.model_operations 18 message",
        "ModelConfig.model_transaction_policy 19 message", "ModelConfig.batch_input 20 message",
        "ModelConfig.batch_output 21 message", "ModelConfig.model_repository_agents 23 message",
        "ModelConfig.response_cache 24 message", "ModelConfig.runtime 25 string",
        "ModelConfig.model_metrics 26 message",
        "ModelInput.name 1 string", "ModelInput.data_type 2 enum", "ModelInput.format 3 enum",
        "ModelInput.dims 4 int64", "ModelInput.reshape 5 message", "ModelInput.is_shape_tensor 6 bool",
        "ModelInput.allow_ragged_batch 7 bool", "ModelInput.optional 8 bool",
        "ModelInput.is_non_linear_format_io 9 bool",
        "ModelOutput.name 1 string", "ModelOutput.data_type 2 enum", "ModelOutput.dims 3 int64",
        "ModelOutput.label_filename 4 string", "ModelOutput.reshape 5 message", "ModelOutput.is_shape_tensor 6 bool",
        "ModelOutput.is_non_linear_format_io 7 bool", "ModelTensorReshape.shape 1 int64",
        "ModelInstanceGroup.name 1 string", "ModelInstanceGroup.count 2 int32", "ModelInstanceGroup.gpus 3 int32",
        "ModelInstanceGroup.kind 4 enum", "ModelInstanceGroup.profile 5 string",
        "ModelInstanceGroup.rate_limiter 6 message", "ModelInstanceGroup.passive 7 bool",
        "ModelInstanceGroup.secondary_devices 8 message", "ModelInstanceGroup.host_policy 9 string",
        "ModelRateLimiter.resources 1 message", "ModelRateLimiter.priority 2 uint32",
        "ModelDynamicBatching.preferred_batch_size 1"
            + " int32", "ModelDynamicBatching.max_queue_delay_microseconds 2 uint64",
        "ModelDynamicBatching.preserve_ordering 3 bool", "ModelDynamicBatching.priority_levels 4 uint64",
        "ModelDynamicBatching.default_priority_level 5 uint64",
        "ModelDynamicBatching.default_queue_policy 6 message", "ModelDynamicBatching.priority_queue_policy 7 map",
        "ModelQueuePolicy.timeout_action 1 enum", "ModelQueuePolicy.default_timeout_microseconds 2 uint64",
        "ModelQueuePolicy.allow_timeout_override 3 bool", "ModelQueuePolicy.max_queue_size 4 uint32",
        "ModelVersionPolicy.latest 1 message", "ModelVersionPolicy.all 2 message",
        "ModelVersionPolicy.specific 3 message", "ModelParameter.string_value 1 string",
        "ModelOptimizationPolicy.graph 1 message", "ModelOptimizationPolicy.priority 2 enum",
        "ModelOptimizationPolicy.cuda 3 message", "ModelOptimizationPolicy.execution_accelerators 4 message",
        "ModelOptimizationPolicy.input_pinned_memory 5 message",
        "ModelOptimizationPolicy.output_pinned_memory 6 message",
        "ModelOptimizationPolicy.gather_kernel_buffer_threshold 7 uint32",
        "ModelOptimizationPolicy.eager_batching 8 bool", "ModelTransactionPolicy.decoupled 1 bool",
        "ModelResponseCache.enable 1 bool",
    };

    @Test
    void fieldNumbersNamesAndTypesMatchTriton()
    {
        for (final String line : FIELDS)
        {
            final String[] parts = line.split(" ");
            final String[] qualified = parts[0].split("\\.");
            final Descriptor message = ModelConfigProto.getDescriptor().findMessageTypeByName(qualified[0]);
            assertNotNull(message, qualified[0]);
            final FieldDescriptor field = message.findFieldByName(qualified[1]);
            assertNotNull(field, parts[0]);
            assertEquals(Integer.parseInt(parts[1]), field.getNumber(), parts[0]);
            final String type = field.isMapField() ? "map" : field.getType().name().toLowerCase();
            assertEquals(parts[2], type, parts[0]);
        }
    }

    @Test
    void fieldTwentyTwoStaysUnused()
    {
        assertNull(ModelConfig.getDescriptor().findFieldByNumber(22));
    }

    @Test
    void schedulersShareOneOneof()
    {
        final Descriptor config = ModelConfig.getDescriptor();
        final var oneof = config.findFieldByName("dynamic_batching").getContainingOneof();
        assertEquals("scheduling_choice", oneof.getName());
        assertEquals(oneof, config.findFieldByName("sequence_batching").getContainingOneof());
        assertEquals(oneof, config.findFieldByName("ensemble_scheduling").getContainingOneof());
        assertEquals(3, oneof.getFieldCount());
    }

    @Test
    void enumNumbersMatchTriton()
    {
        final String[] dataTypes = {"TYPE_INVALID", "TYPE_BOOL", "TYPE_UINT8", "TYPE_UINT16", "TYPE_UINT32",
            "TYPE_UINT64", "TYPE_INT8", "TYPE_INT16", "TYPE_INT32", "TYPE_INT64", "TYPE_FP16", "TYPE_FP32",
            "TYPE_FP64", "TYPE_STRING", "TYPE_BF16"};
        final EnumDescriptor dataType = DataType.getDescriptor();
        assertEquals(dataTypes.length, dataType.getValues().size());
        for (int number = 0; number < dataTypes.length; number++)
        {
            assertEquals(dataTypes[number], dataType.findValueByNumber(number).getName());
        }
        assertEquals(3, ModelInstanceGroup.Kind.KIND_MODEL.getNumber());
        assertEquals(1, ModelQueuePolicy.TimeoutAction.DELAY.getNumber());
        assertEquals("inference", ModelConfigProto.getDescriptor().getPackage());
    }

    @Test
    void priorityQueuePolicyIsKeyedByUint64()
    {
        final FieldDescriptor map = io.ingot.config.proto.ModelDynamicBatching.getDescriptor()
            .findFieldByName("priority_queue_policy");
        assertTrue(map.isMapField());
        assertEquals(FieldDescriptor.Type.UINT64, map.getMessageType().findFieldByName("key").getType());
    }
}
