package io.ingot.perf.tune;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.config.proto.ModelParameter;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One configuration a sweep measures: what it sets of the model's scheduling. Immutable.
 *
 * @param instances    {@code count} of every instance group
 * @param maxBatchSize {@code max_batch_size}
 * @param batching     whether {@code dynamic_batching} is present (without it requests run one by one)
 * @param preferred    {@code preferred_batch_size} (empty for none)
 * @param queueDelayUs {@code max_queue_delay_microseconds}
 * @param parameters   {@code parameters} entries set (a config variant such as {@code ingot.batching}); empty
 *                     for none
 */
public record Candidate(int instances, int maxBatchSize, boolean batching, List<Integer> preferred,
    long queueDelayUs, Map<String, String> parameters)
{
    /** Copies the collections. */
    public Candidate
    {
        preferred = List.copyOf(preferred);
        parameters = Map.copyOf(parameters);
    }

    /**
     * The scheduling a configuration has now.
     *
     * @param config the model's configuration (completed, so that instance groups are present)
     * @return it as a candidate (its parameters left out: variants are what a sweep adds)
     */
    public static Candidate of(final ModelConfig config)
    {
        final int instances = config.getInstanceGroupCount() == 0 ? 1 : config.getInstanceGroup(0).getCount();
        final ModelDynamicBatching batching = config.getDynamicBatching();
        return new Candidate(Math.max(1, instances), config.getMaxBatchSize(), config.hasDynamicBatching(),
            batching.getPreferredBatchSizeList(), batching.getMaxQueueDelayMicroseconds(), Map.of());
    }

    /**
     * Applies this candidate to a configuration: the rest of it (inputs, other dynamic-batching fields such as
     * priorities and queue policies, other parameters) stays as it was.
     *
     * @param config    the configuration to change (the model's file as written)
     * @param completed the same configuration completed by the core, whose instance groups stand in when the file
     *                  has none
     * @return the changed configuration
     */
    public ModelConfig applyTo(final ModelConfig config, final ModelConfig completed)
    {
        final ModelConfig.Builder builder = config.toBuilder().setMaxBatchSize(maxBatchSize);
        final List<ModelInstanceGroup> groups = config.getInstanceGroupCount() > 0 ? config.getInstanceGroupList()
            : completed.getInstanceGroupList().isEmpty() ? List.of(ModelInstanceGroup.newBuilder()
                .setKind(ModelInstanceGroup.Kind.KIND_CPU).build()) : completed.getInstanceGroupList();
        builder.clearInstanceGroup();
        for (final ModelInstanceGroup group : groups)
        {
            builder.addInstanceGroup(group.toBuilder().setCount(instances));
        }
        if (batching)
        {
            builder.setDynamicBatching(config.getDynamicBatching().toBuilder().clearPreferredBatchSize()
                .addAllPreferredBatchSize(preferred).setMaxQueueDelayMicroseconds(queueDelayUs));
        }
        else
        {
            builder.clearDynamicBatching();
        }
        for (final Map.Entry<String, String> parameter : parameters.entrySet())
        {
            builder.putParameters(parameter.getKey(), ModelParameter.newBuilder().setStringValue(
                parameter.getValue()).build());
        }
        return builder.build();
    }

    /** @return a one-line description, as progress and the CSV show it */
    public String describe()
    {
        final StringBuilder text = new StringBuilder().append("instances ").append(instances)
            .append(", max_batch ").append(maxBatchSize);
        if (!batching)
        {
            text.append(", no dynamic batching");
        }
        else
        {
            text.append(", delay ").append(queueDelayUs).append(" us");
            if (!preferred.isEmpty())
            {
                text.append(", preferred ").append(preferred);
            }
        }
        if (!parameters.isEmpty())
        {
            text.append(", ").append(parameters.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(entry -> entry.getKey() + "=" + entry.getValue()).collect(Collectors.joining(" ")));
        }
        return text.toString();
    }
}
