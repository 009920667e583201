package io.ingot.api;

/**
 * Triton's {@code --model-control-mode}: which models load at start-up and whether the load API works. Immutable.
 */
public enum ModelControlMode
{
    /** Load every model of the repositories at start-up; the load and unload calls fail. */
    NONE,
    /** Load only the start-up models named in the options; afterwards models load and unload on request. */
    EXPLICIT
}
