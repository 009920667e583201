package io.ingot.cli;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;

/** Opens a core from options; {@link InferenceCore#open} in production, a fake in tests. */
@FunctionalInterface
public interface CoreOpener
{
    /** The production opener. */
    CoreOpener DEFAULT = InferenceCore::open;

    /**
     * @param options where the models come from
     * @return a running core
     */
    InferenceCore open(CoreOptions options);
}
