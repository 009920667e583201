/**
 * The core behind {@link io.ingot.api.InferenceCore}: the models of the repositories, each version with its request
 * validation, scheduler and instances ({@code ModelRuntime}), the default response memory, and the provider that
 * {@link io.ingot.api.InferenceCore#open} finds. Thread-safe where the API is: any thread may submit; loading and
 * unloading are serialized.
 */
package io.ingot.core;
