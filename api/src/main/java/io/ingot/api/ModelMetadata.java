package io.ingot.api;

import java.util.List;

/**
 * A model's metadata, as Triton reports it.
 *
 * <p>A snapshot built for each call: the core keeps no reference to it and never changes it afterwards, so it may be
 * kept and read from any thread once safely published.
 *
 * @param name     model name
 * @param versions loaded versions, as strings
 * @param platform platform (e.g. {@code onnxruntime_onnx}), or the backend name when no platform is set
 * @param inputs   inputs
 * @param outputs  outputs
 */
public record ModelMetadata(String name, List<String> versions, String platform, List<TensorMetadata> inputs,
    List<TensorMetadata> outputs)
{
}
