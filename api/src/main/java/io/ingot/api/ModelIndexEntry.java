package io.ingot.api;

/**
 * One row of the repository index: a model version and its state. Immutable.
 *
 * @param name    model name
 * @param version version as a string, empty when the model has no loaded version
 * @param state   {@code READY}, {@code UNAVAILABLE}, {@code LOADING} or {@code UNLOADING}
 * @param reason  why the model is not ready, empty otherwise
 */
public record ModelIndexEntry(String name, String version, String state, String reason)
{
}
