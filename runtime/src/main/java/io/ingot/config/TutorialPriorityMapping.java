package io.ingot.config;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelQueuePolicy;
import io.ingot.config.proto.PriorityLevel;
import io.ingot.config.proto.PriorityPolicy;
import io.ingot.config.proto.SchedulingPolicy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Maps the tutorial form {@code scheduling_policy { priority { ... } }} onto Triton's own
 * {@code dynamic_batching} priority fields.
 *
 * <p>Tutorial priorities count from 0 (highest); Triton's levels count from 1 (highest). So:
 * <ul>
 *   <li>{@code priority_levels} = the largest listed priority + 1;</li>
 *   <li>{@code default_priority_level} = {@code default_priority} + 1;</li>
 *   <li>each listed {@code max_queue_size} (when non-zero) becomes
 *       {@code priority_queue_policy[priority + 1].max_queue_size}; the entry starts as a copy of
 *       {@code default_queue_policy}, so a timeout set there still applies to that level.</li>
 * </ul>
 * {@code dynamic_batching} is created when absent; its other fields are kept. Setting the tutorial form together
 * with any of Triton's priority fields is an error, as is using it with another scheduler.
 */
final class TutorialPriorityMapping
{
    private static final String BLOCK = "scheduling_policy.priority";

    private final String source;
    private final int line;
    private final int column;

    /**
     * @param source the file the tutorial form was read from, for error messages
     * @param line   1-based line of {@code scheduling_policy}, or 0
     * @param column 1-based column of {@code scheduling_policy}, or 0
     */
    TutorialPriorityMapping(final String source, final int line, final int column)
    {
        this.source = source;
        this.line = line;
        this.column = column;
    }

    /**
     * @param config the configuration parsed from the same text, without the tutorial block
     * @param policy the tutorial block
     * @return {@code config} with the block mapped onto {@code dynamic_batching}
     * @throws ConfigException when the block is incomplete, inconsistent or conflicts with the rest of the config
     */
    ModelConfig apply(final ModelConfig config, final SchedulingPolicy policy) throws ConfigException
    {
        if (!policy.hasPriority())
        {
            throw error("'scheduling_policy' must contain a 'priority' block (the only part of it Ingot maps onto "
                + "Triton's dynamic_batching fields)");
        }
        final PriorityPolicy priority = policy.getPriority();
        final int highestNumber = checkLevels(priority);
        if (!priority.hasDefaultPriority())
        {
            throw error("'" + BLOCK + "' must set 'default_priority', the priority (0 = highest) of requests that "
                + "name none");
        }
        final int defaultPriority = priority.getDefaultPriority();
        if (defaultPriority < 0 || defaultPriority > highestNumber)
        {
            throw error("'" + BLOCK + ".default_priority' is " + defaultPriority
                + " but the listed priorities run from 0 to " + highestNumber);
        }
        if (config.hasSequenceBatching() || config.hasEnsembleScheduling())
        {
            final String other = config.hasSequenceBatching() ? "sequence_batching" : "ensemble_scheduling";
            throw error("'" + BLOCK + "' configures the dynamic batcher, but the model also selects '" + other
                + "'; a model has exactly one scheduler");
        }

        final ModelDynamicBatching existing = config.getDynamicBatching();
        final List<String> conflicting = new ArrayList<>();
        if (existing.getPriorityLevels() != 0)
        {
            conflicting.add("dynamic_batching.priority_levels");
        }
        if (existing.getDefaultPriorityLevel() != 0)
        {
            conflicting.add("dynamic_batching.default_priority_level");
        }
        if (existing.getPriorityQueuePolicyCount() != 0)
        {
            conflicting.add("dynamic_batching.priority_queue_policy");
        }
        if (!conflicting.isEmpty())
        {
            throw error("the tutorial form '" + BLOCK + "' and Triton's " + String.join(", ", conflicting)
                + " both configure priority scheduling; keep only one of the two forms");
        }

        final ModelDynamicBatching.Builder batching = existing.toBuilder()
            .setPriorityLevels(highestNumber + 1L)
            .setDefaultPriorityLevel(defaultPriority + 1L);
        for (final PriorityLevel level : priority.getPriorityLevelsList())
        {
            if (level.getMaxQueueSize() != 0)
            {
                final ModelQueuePolicy queue = existing.getDefaultQueuePolicy().toBuilder()
                    .setMaxQueueSize(level.getMaxQueueSize())
                    .build();
                batching.putPriorityQueuePolicy(level.getPriority() + 1L, queue);
            }
        }
        return config.toBuilder().setDynamicBatching(batching).build();
    }

    /** @return the largest listed priority, after checking every entry. */
    private int checkLevels(final PriorityPolicy priority) throws ConfigException
    {
        if (priority.getPriorityLevelsCount() == 0)
        {
            throw error("'" + BLOCK + "' must list at least one entry in 'priority_levels'");
        }
        final Set<Integer> seen = new HashSet<>();
        int highestNumber = -1;
        for (int i = 0; i < priority.getPriorityLevelsCount(); i++)
        {
            final PriorityLevel level = priority.getPriorityLevels(i);
            final String entry = "'" + BLOCK + ".priority_levels[" + i + "]'";
            if (!level.hasPriority())
            {
                throw error(entry + " must set 'priority' (0 = highest)");
            }
            if (level.getPriority() < 0)
            {
                throw error(entry + " has priority " + level.getPriority() + "; priorities are >= 0, 0 the highest");
            }
            if (!seen.add(level.getPriority()))
            {
                throw error(entry + " repeats priority " + level.getPriority() + "; each priority may be listed once");
            }
            highestNumber = Math.max(highestNumber, level.getPriority());
        }
        return highestNumber;
    }

    private ConfigException error(final String reason)
    {
        return new ConfigException(ConfigException.Category.INVALID_ARG, reason, source, line, column, null);
    }
}
