package io.ingot.config;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.ingot.config.proto.ModelConfigProto;
import io.ingot.config.proto.SchedulingPolicy;
import io.ingot.config.proto.SchedulingPolicyProto;

/**
 * The text schema {@code config.pbtxt} is parsed against: Triton's {@code ModelConfig} plus one extra field,
 * {@code scheduling_policy} (the tutorial form of priority scheduling).
 *
 * <p>The schema is derived at class initialization from the generated {@code ModelConfig} descriptor, so it can
 * never drift from it: every other field keeps its name, number and type, which makes a message parsed against it
 * wire-compatible with {@code ModelConfig} once the extra field is cleared.
 */
final class ExtendedConfigSchema
{
    /**
     * Number of the extra field. Far above anything Triton uses, so a future Triton field cannot collide with it; it
     * never reaches the wire outside this class.
     */
    static final int SCHEDULING_POLICY_NUMBER = 100_000;

    /** Name of the extra field as {@code config.pbtxt} writes it. */
    static final String SCHEDULING_POLICY_NAME = "scheduling_policy";

    /** {@code inference.ModelConfig} with the extra field. */
    static final Descriptor MODEL_CONFIG;

    /** The extra field of {@link #MODEL_CONFIG}. */
    static final FieldDescriptor SCHEDULING_POLICY;

    static
    {
        final FileDescriptorProto.Builder file = ModelConfigProto.getDescriptor().toProto().toBuilder()
            .setName("ingot/extended_model_config.proto")
            .clearDependency()
            .addDependency(SchedulingPolicyProto.getDescriptor().getName());
        final String modelConfigName = io.ingot.config.proto.ModelConfig.getDescriptor().getName();
        final DescriptorProto.Builder modelConfig = file.getMessageTypeBuilderList().stream()
            .filter(message -> message.getName().equals(modelConfigName))
            .findFirst()
            .orElseThrow();
        modelConfig.addField(FieldDescriptorProto.newBuilder()
            .setName(SCHEDULING_POLICY_NAME)
            .setJsonName("schedulingPolicy")
            .setNumber(SCHEDULING_POLICY_NUMBER)
            .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL)
            .setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
            .setTypeName("." + SchedulingPolicy.getDescriptor().getFullName()));
        try
        {
            final FileDescriptor extended = FileDescriptor.buildFrom(file.build(),
                new FileDescriptor[] {SchedulingPolicyProto.getDescriptor()});
            MODEL_CONFIG = extended.findMessageTypeByName(modelConfigName);
            SCHEDULING_POLICY = MODEL_CONFIG.findFieldByNumber(SCHEDULING_POLICY_NUMBER);
        }
        catch (final DescriptorValidationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private ExtendedConfigSchema()
    {
    }
}
