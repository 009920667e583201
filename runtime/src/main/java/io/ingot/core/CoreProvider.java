package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceCoreProvider;

/**
 * Registers this module's {@link Core} as the implementation of {@link InferenceCore#open} (found with
 * {@link java.util.ServiceLoader}). Stateless and thread-safe.
 */
public final class CoreProvider implements InferenceCoreProvider
{
    @Override
    public InferenceCore open(final CoreOptions options)
    {
        return Core.open(options);
    }
}
