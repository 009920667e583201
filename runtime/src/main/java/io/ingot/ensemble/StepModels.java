package io.ingot.ensemble;

import io.ingot.config.proto.ModelConfig;

import java.util.NavigableMap;

/**
 * What an ensemble sees of the models it is built from when it loads: the loaded versions of a model and their
 * configurations. Implementations read the core's model table; called under the core's model-control lock.
 */
@FunctionalInterface
public interface StepModels
{
    /**
     * @param model a model name
     * @return its loaded versions, ascending, with their final configurations; empty when none is loaded
     */
    NavigableMap<Long, ModelConfig> loaded(String model);
}
