package io.ingot.api;

import io.ingot.tensor.DataType;

import java.util.List;

/**
 * Name, type and shape of a model input or output as the metadata endpoints report it: the configured dims with a
 * leading {@code -1} when the model batches. Immutable when the core builds it (the shape list is unmodifiable).
 *
 * @param name     tensor name
 * @param dataType element type
 * @param shape    shape, {@code -1} for a variable dimension
 */
public record TensorMetadata(String name, DataType dataType, List<Long> shape)
{
}
