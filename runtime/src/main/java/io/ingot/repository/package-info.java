/**
 * Triton model repositories: scanning model directories and version directories into prepared models
 * ({@link io.ingot.repository.ModelRepository}), preparing in-memory configurations
 * ({@link io.ingot.repository.ModelConfigs}), and the hook through which backends complete a configuration
 * ({@link io.ingot.repository.BackendAutoCompleter}).
 */
package io.ingot.repository;
