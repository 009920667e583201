package io.ingot.config;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelEnsembling;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Triton's checks of an ensemble's own configuration ({@code ValidateEnsembleSchedulingConfig}): no instance
 * groups, optimization or warmup; every step names a model and maps inputs and outputs; each ensemble tensor is
 * written at most once; data flows from the ensemble's inputs to every output, and no tensor dangles.
 */
final class EnsembleChecks
{
    /** One ensemble tensor: written by at most one step output, read by any number of step inputs. */
    private static final class Tensor
    {
        private final String name;
        private boolean written;
        private boolean ready;
        private final List<Tensor> produceFrom = new ArrayList<>();
        private final List<Tensor> consumedInto = new ArrayList<>();

        private Tensor(final String name)
        {
            this.name = name;
        }
    }

    private EnsembleChecks()
    {
    }

    /**
     * @param config a configuration with {@code ensemble_scheduling}
     * @throws ConfigException INVALID_ARG naming the ensemble, the step or tensor, and the problem
     */
    static void validate(final ModelConfig config) throws ConfigException
    {
        final String m = config.getName();
        if (!Platforms.ENSEMBLE.equals(config.getPlatform()))
        {
            throw ConfigException.invalid("ensemble scheduling cannot be set for model '" + m
                + "' whose platform is not " + Platforms.ENSEMBLE);
        }
        if (config.getInstanceGroupCount() != 0)
        {
            throw ConfigException.invalid("instance group should not be specified for ensemble '" + m + "'");
        }
        if (config.hasOptimization())
        {
            throw ConfigException.invalid("optimization should not be specified for ensemble '" + m + "'");
        }
        if (config.getModelWarmupCount() != 0)
        {
            throw ConfigException.invalid("model_warmup can not be specified for ensemble '" + m + "'");
        }
        if (config.getEnsembleScheduling().getStepCount() == 0)
        {
            throw ConfigException.invalid("must specify 'step' for ensemble '" + m + "'");
        }
        final Map<String, Tensor> tensors = buildGraph(config.getEnsembleScheduling(), m);
        propagateReadiness(config, tensors, m);
        final Set<String> outputs = new HashSet<>();
        for (final ModelOutput output : config.getOutputList())
        {
            final Tensor tensor = tensors.get(output.getName());
            if (tensor == null)
            {
                // Triton's text, its unbalanced quote included, so that what greps for it finds it.
                throw ConfigException.invalid("ensemble output '" + output.getName() + "' for ensemble " + m
                    + "' is not used");
            }
            if (!tensor.ready)
            {
                throw ConfigException.invalid(notWritten(tensor, m));
            }
            outputs.add(tensor.name);
        }
        for (final Tensor tensor : tensors.values())
        {
            if (!outputs.contains(tensor.name) && (!tensor.ready || tensor.consumedInto.isEmpty()))
            {
                throw ConfigException.invalid("ensemble tensor '" + tensor.name + "' is unused in ensemble '" + m
                    + "'");
            }
        }
    }

    private static Map<String, Tensor> buildGraph(final ModelEnsembling ensembling, final String m)
        throws ConfigException
    {
        final Map<String, Tensor> tensors = new LinkedHashMap<>();
        for (int i = 0; i < ensembling.getStepCount(); i++)
        {
            final ModelEnsembling.Step step = ensembling.getStep(i);
            final String where = " in step " + i + " of ensemble '" + m + "'";
            if (step.getModelName().isEmpty())
            {
                throw ConfigException.invalid("must specify 'model_name'" + where);
            }
            if (step.getInputMapCount() == 0)
            {
                throw ConfigException.invalid("must specify 'input_map'" + where);
            }
            if (step.getOutputMapCount() == 0)
            {
                throw ConfigException.invalid("must specify 'output_map'" + where);
            }
            final List<Tensor> written = new ArrayList<>();
            for (final String name : step.getOutputMapMap().values())
            {
                final Tensor tensor = tensors.computeIfAbsent(name, Tensor::new);
                if (tensor.written)
                {
                    throw ConfigException.invalid("ensemble tensor '" + name
                        + "' can appear in an output map only once for ensemble '" + m + "' step " + i);
                }
                tensor.written = true;
                written.add(tensor);
            }
            for (final String name : step.getInputMapMap().values())
            {
                final Tensor read = tensors.computeIfAbsent(name, Tensor::new);
                for (final Tensor output : written)
                {
                    output.produceFrom.add(read);
                    read.consumedInto.add(output);
                }
            }
        }
        return tensors;
    }

    /** Marks every tensor computable from the ensemble inputs as ready: a tensor is ready when all it needs is. */
    private static void propagateReadiness(final ModelConfig config, final Map<String, Tensor> tensors,
        final String m) throws ConfigException
    {
        final Deque<Tensor> readyQueue = new ArrayDeque<>();
        for (final ModelInput input : config.getInputList())
        {
            final Tensor tensor = tensors.get(input.getName());
            if (tensor == null)
            {
                // Triton's text, its unbalanced quote included.
                throw ConfigException.invalid("ensemble input '" + input.getName() + "' for ensemble " + m
                    + "' is not used");
            }
            tensor.ready = true;
            readyQueue.add(tensor);
        }
        while (!readyQueue.isEmpty())
        {
            final Tensor tensor = readyQueue.poll();
            for (final Tensor next : tensor.consumedInto)
            {
                if (!next.ready && next.produceFrom.stream().allMatch(previous -> previous.ready))
                {
                    next.ready = true;
                    readyQueue.add(next);
                }
            }
        }
    }

    /** Names the output and, when there is one, the first unconnected tensor it depends on. */
    private static String notWritten(final Tensor output, final String m)
    {
        final String message = "output '" + output.name + "' for ensemble '" + m + "' is not written";
        Tensor lastNotReady = output;
        final Set<String> seen = new HashSet<>();
        List<Tensor> previous = output.produceFrom;
        while (previous != null && !previous.isEmpty())
        {
            final List<Tensor> current = previous;
            previous = null;
            for (final Tensor tensor : current)
            {
                if (!tensor.ready && seen.add(tensor.name))
                {
                    lastNotReady = tensor;
                    previous = tensor.produceFrom;
                    break;
                }
            }
        }
        if (lastNotReady == output)
        {
            return message;
        }
        return message + ": at least one of its depending tensors, '" + lastNotReady.name + "', is not connected";
    }
}
