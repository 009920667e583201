/** Placeholder package of the onnx module; see the module README. */
package io.ingot.onnx;
