package io.ingot.cli;

import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;

/**
 * One input tensor ready for a request.
 *
 * @param name     input name
 * @param dataType element type
 * @param shape    shape, with the batch dimension when the model batches
 * @param data     the elements (native memory owned by the caller's arena)
 */
record TensorInput(String name, DataType dataType, long[] shape, MemorySegment data)
{
}
