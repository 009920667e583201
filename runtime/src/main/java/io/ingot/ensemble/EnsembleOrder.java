package io.ingot.ensemble;

import io.ingot.config.Platforms;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelEnsembling;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The order in which a set of models loads so that each ensemble loads after the models it is built from, as
 * Triton's dependency graph orders them: every other model first, then the ensembles, each after the ensembles it
 * contains. An ensemble that depends on itself through other ensembles gets Triton's circular-dependency error and
 * does not load. Stateless.
 */
public final class EnsembleOrder
{
    /**
     * @param order    the names to load, in load order
     * @param failures the ensembles that cannot load, with Triton's reason
     */
    public record Plan(List<String> order, Map<String, String> failures)
    {
    }

    private EnsembleOrder()
    {
    }

    /**
     * @param config a configuration
     * @return whether it is an ensemble's
     */
    public static boolean isEnsemble(final ModelConfig config)
    {
        return Platforms.ENSEMBLE.equals(config.getPlatform()) || config.hasEnsembleScheduling();
    }

    /**
     * @param models the models to load, by name, in the order they were found
     * @return their load order and the ensembles in a cycle
     */
    public static Plan of(final Map<String, ModelConfig> models)
    {
        final List<String> order = new ArrayList<>();
        final Map<String, String> failures = new LinkedHashMap<>();
        for (final Map.Entry<String, ModelConfig> entry : models.entrySet())
        {
            if (!isEnsemble(entry.getValue()))
            {
                order.add(entry.getKey());
            }
            else
            {
                final String cycle = cycleThrough(entry.getKey(), entry.getKey(), models, new HashSet<>());
                if (cycle != null)
                {
                    failures.put(entry.getKey(), cycle);
                }
            }
        }
        final Set<String> placed = new HashSet<>(order);
        for (final String name : models.keySet())
        {
            place(name, models, failures, placed, order);
        }
        return new Plan(List.copyOf(order), Map.copyOf(failures));
    }

    private static void place(final String name, final Map<String, ModelConfig> models,
        final Map<String, String> failures, final Set<String> placed, final List<String> order)
    {
        final ModelConfig config = models.get(name);
        if (config == null || failures.containsKey(name) || !placed.add(name))
        {
            return;
        }
        for (final ModelEnsembling.Step step : config.getEnsembleScheduling().getStepList())
        {
            place(step.getModelName(), models, failures, placed, order);
        }
        order.add(name);
    }

    /**
     * Triton's {@code CircularDependencyCheck}: walks from {@code current} towards the models it is built from.
     *
     * @return the error when {@code start} is reached again, or {@code null}
     */
    private static String cycleThrough(final String current, final String start,
        final Map<String, ModelConfig> models, final Set<String> visited)
    {
        final ModelConfig config = models.get(current);
        if (config == null || !visited.add(current))
        {
            return null;
        }
        for (final ModelEnsembling.Step step : config.getEnsembleScheduling().getStepList())
        {
            if (step.getModelName().equals(start))
            {
                return circular(start, current);
            }
            final String found = cycleThrough(step.getModelName(), start, models, visited);
            if (found != null)
            {
                return found;
            }
        }
        return null;
    }

    /**
     * @param start   the ensemble whose load found the cycle
     * @param current the ensemble of the cycle that contains {@code start}
     * @return Triton's message
     */
    public static String circular(final String start, final String current)
    {
        return "circular dependency between ensembles: " + start + " -> ... -> " + current + " -> " + start;
    }
}
