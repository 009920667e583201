/**
 * Model configuration: the parser of Triton's {@code config.pbtxt} ({@link io.ingot.config.ModelConfigParser}, over
 * the schema the api module generates into {@code io.ingot.config.proto}), server-side auto-complete
 * ({@link io.ingot.config.ServerAutoCompleter}), normalization ({@link io.ingot.config.ConfigNormalizer}) and
 * validation ({@link io.ingot.config.ConfigValidator}). Triton's JSON rendering of a configuration is in the api
 * module ({@link io.ingot.api.ModelConfigJson}).
 */
package io.ingot.config;
