/**
 * Model configuration: Triton's {@code config.pbtxt} schema (generated into {@code io.ingot.config.proto}), its
 * parser ({@link io.ingot.config.ModelConfigParser}), Triton's JSON rendering ({@link io.ingot.api.ModelConfigJson}),
 * server-side auto-complete ({@link io.ingot.config.ServerAutoCompleter}), normalization
 * ({@link io.ingot.config.ConfigNormalizer}) and validation ({@link io.ingot.config.ConfigValidator}).
 */
package io.ingot.config;
