package io.ingot.backend;

import io.ingot.config.proto.ModelInstanceGroup;

import java.util.List;

/**
 * Identity of one model instance. Immutable when the core makes it (one per instance, before
 * {@link Backend#createEngine}).
 *
 * @param model      the model version it belongs to
 * @param name       instance name: {@code <group name>_<index in group>}, or {@code <group name>_<gpu>_<index>} for
 *                   a GPU group (one set of {@code count} instances per listed GPU)
 * @param index      index among all instances of the model version
 * @param kind       the group's resolved kind (KIND_CPU or KIND_GPU, ...)
 * @param deviceId   the GPU of a GPU instance, {@code -1} otherwise
 * @param profiles   the group's TensorRT optimization profiles (may be empty)
 */
public record InstanceContext(ModelContext model, String name, int index, ModelInstanceGroup.Kind kind,
    int deviceId, List<String> profiles)
{
}
