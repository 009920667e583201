package io.ingot.api;

/**
 * Triton's {@code --model-control-mode}: which models load at start-up and whether the load API works. Immutable.
 */
public enum ModelControlMode
{
    /** Load every model of the repositories at start-up; the load and unload calls fail. */
    NONE,
    /** Load only the start-up models named in the options; afterwards models load and unload on request. */
    EXPLICIT,
    /**
     * Load every model of the repositories at start-up, then scan the repositories every
     * {@link CoreOptions#repositoryPollSeconds()} seconds and load added models, reload changed ones and unload
     * removed ones, without disturbing the requests of unchanged models; the load and unload calls fail.
     */
    POLL
}
