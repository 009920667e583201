/**
 * The tensor element types Ingot moves ({@link io.ingot.tensor.DataType}, Triton's {@code TYPE_*} and the KServe v2
 * datatype names): shared by the in-process API and the backend SPI. Immutable and thread-safe.
 */
package io.ingot.tensor;
