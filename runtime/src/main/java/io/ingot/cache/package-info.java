/**
 * Triton's response cache: responses of models with {@code response_cache { enable: true }}, keyed by model, version
 * and input bytes, held in one byte-bounded local cache the whole core shares.
 */
package io.ingot.cache;
