package io.ingot.core;

import io.ingot.api.InferenceRequest;

import java.util.Collection;
import java.util.Collections;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One model name: its loaded versions (an immutable snapshot, swapped whole), or its state and why it has none. The
 * default version is resolved once, so that a request without a version looks nothing up. Immutable.
 *
 * @param name     the model name
 * @param versions the loaded versions, ascending; empty when none is loaded
 * @param state    {@link #READY}, {@link #UNAVAILABLE}, {@link #LOADING} or {@link #UNLOADING}
 * @param reason   why the model has no version, empty otherwise
 * @param unavailable for a model with no loaded version whose versions were tried or unloaded, each version's
 *                 reason as Triton's index gives it ({@code "unloaded"}, or the failure as
 *                 {@code "<Code>: <message>"}); empty otherwise
 * @param latest   the highest loaded version, {@code null} when none is
 */
record ModelSlot(String name, NavigableMap<Long, ServedVersion> versions, String state, String reason,
    NavigableMap<Long, String> unavailable, ServedVersion latest)
{
    /** A model (version) that serves. */
    static final String READY = "READY";
    /** A model (version) that does not serve: failed, or unloaded. */
    static final String UNAVAILABLE = "UNAVAILABLE";
    /** A model that is being loaded for the first time. */
    static final String LOADING = "LOADING";
    /** A model that is being unloaded. */
    static final String UNLOADING = "UNLOADING";
    /** Triton's reason for a model that was unloaded. */
    static final String UNLOADED = "unloaded";

    ModelSlot(final String name, final NavigableMap<Long, ServedVersion> versions, final String state,
        final String reason)
    {
        this(name, versions, state, reason, Collections.emptyNavigableMap(),
            versions.isEmpty() ? null : versions.lastEntry().getValue());
    }

    /**
     * @param name   the model name
     * @param reason why it has no version
     * @return a slot with no version, UNAVAILABLE for that reason
     */
    static ModelSlot failed(final String name, final String reason)
    {
        return new ModelSlot(name, Collections.emptyNavigableMap(), UNAVAILABLE, reason);
    }

    /**
     * @param name        the model name
     * @param reason      why no version serves: Triton's summary of the failed load
     * @param unavailable each tried version's reason
     * @return a slot with no version, UNAVAILABLE, that the index lists version by version
     */
    static ModelSlot failedVersions(final String name, final String reason,
        final NavigableMap<Long, String> unavailable)
    {
        return new ModelSlot(name, Collections.emptyNavigableMap(), UNAVAILABLE, reason,
            Collections.unmodifiableNavigableMap(unavailable), null);
    }

    /**
     * @param name     the model name
     * @param versions the versions that were unloaded
     * @return a slot with no version, UNAVAILABLE, each version {@link #UNLOADED} as Triton's index lists it
     */
    static ModelSlot unloaded(final String name, final Collection<Long> versions)
    {
        final NavigableMap<Long, String> unavailable = new TreeMap<>();
        versions.forEach(version -> unavailable.put(version, UNLOADED));
        return unavailable.isEmpty() ? failed(name, UNLOADED) : failedVersions(name, UNLOADED, unavailable);
    }

    /**
     * @param name  the model name
     * @param state {@link #LOADING} or {@link #UNLOADING}
     * @return a slot with no version in that state
     */
    static ModelSlot transition(final String name, final String state)
    {
        return new ModelSlot(name, Collections.emptyNavigableMap(), state, "");
    }

    ServedVersion version(final long version)
    {
        return version == InferenceRequest.DEFAULT_VERSION ? latest : versions.get(version);
    }

    /** @return whether at least one version serves */
    boolean serving()
    {
        return !versions.isEmpty();
    }
}
