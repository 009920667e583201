/**
 * Triton's Python backend: {@code model.py} files run unchanged in stub processes, one per model instance, that
 * exchange batches with the core through a shared-memory region private to the instance (rings and doorbells of
 * {@code io.ingot.ipc}, tensors read in place as numpy arrays), with BLS calls back into the core. The protocol and
 * what is verified are in python/README.md.
 */
package io.ingot.python;
