package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;

/** Placeholder until the scheduler core lands: the API compiles, nothing runs yet. */
public final class Core
{
    private Core()
    {
    }

    /**
     * @param options core options
     * @return never
     */
    public static InferenceCore open(final CoreOptions options)
    {
        throw new UnsupportedOperationException("the runtime core is not merged yet");
    }
}
