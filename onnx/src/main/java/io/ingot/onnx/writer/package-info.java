/**
 * Ingot's own ONNX writer: builds {@code .onnx} files (graph, typed inputs and outputs, seeded initializers) from
 * Java, over the subset of {@code onnx.proto} in {@code io.ingot.onnx.writer.proto}. It writes the example
 * repository's ResNet-50 at build time and the small test models of the ONNX backend's tests. Builders are
 * single-threaded; the files they write are ordinary ONNX that ONNX Runtime loads.
 */
package io.ingot.onnx.writer;
