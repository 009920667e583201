package io.ingot.ensemble;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelEnsembling;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Triton's check that no step of an ensemble joins tensors that come from different decoupled models (core
 * {@code ensemble_utils.cc}, the walk at the end of {@code ValidateEnsembleConfig}): the tensors are visited in data
 * flow order from the ensemble's inputs; every output of a decoupled step starts a new label, every other tensor
 * takes the label of its step's first input, and the outputs of one step share one label; a tensor whose step's
 * inputs carry different labels fails with Triton's message, naming the model that first mentions that tensor (the
 * ensemble itself for its inputs and outputs). Run after the steps' mappings were checked, so every mapped name has
 * its tensor. Stateless.
 */
final class DecoupledBranching
{
    /** An ensemble tensor: Triton's {@code TensorNode}, reduced to what the walk reads. */
    private static final class Node
    {
        private final String model;
        private final List<Node> previous = new ArrayList<>();
        private final List<Node> next = new ArrayList<>();
        private Node sibling;
        private boolean decoupled;
        private boolean visited;
        private long label;

        Node(final String model)
        {
            this.model = model;
        }
    }

    private DecoupledBranching()
    {
    }

    /**
     * @param ensemble the ensemble's configuration
     * @param models   the configuration of each step's model, in step order
     * @throws InferenceException INVALID_ARG with Triton's message when a step joins different decoupled branches
     */
    static void check(final ModelConfig ensemble, final ModelConfig[] models)
    {
        final String e = ensemble.getName();
        final Map<String, Node> tensors = new HashMap<>();
        for (final ModelInput input : ensemble.getInputList())
        {
            tensors.put(input.getName(), new Node(e));
        }
        final Node sink = new Node(e);
        for (final ModelOutput output : ensemble.getOutputList())
        {
            final Node node = tensors.computeIfAbsent(output.getName(), name -> new Node(e));
            sink.previous.add(node);
            node.next.add(sink);
        }
        final List<ModelEnsembling.Step> steps = ensemble.getEnsembleScheduling().getStepList();
        for (int i = 0; i < models.length; i++)
        {
            link(steps.get(i), models[i], tensors);
        }
        walk(e, ensemble, tensors);
    }

    /** Adds one step's tensors and edges, as Triton's {@code ValidateTensorMapping} does. */
    private static void link(final ModelEnsembling.Step step, final ModelConfig model, final Map<String, Node> tensors)
    {
        final String name = step.getModelName();
        for (final ModelInput input : model.getInputList())
        {
            final String tensor = step.getInputMapMap().get(input.getName());
            if (tensor != null)
            {
                tensors.computeIfAbsent(tensor, t -> new Node(name));
            }
        }
        final Node sibling = new Node(name);
        for (final Map.Entry<String, String> output : step.getOutputMapMap().entrySet())
        {
            tensors.computeIfAbsent(output.getValue(), t -> new Node(name)).sibling = sibling;
        }
        final boolean decoupled = model.getModelTransactionPolicy().getDecoupled();
        for (final String output : step.getOutputMapMap().values())
        {
            final Node node = tensors.get(output);
            node.decoupled = decoupled;
            for (final String input : step.getInputMapMap().values())
            {
                final Node previous = tensors.get(input);
                node.previous.add(previous);
                previous.next.add(node);
            }
        }
    }

    private static void walk(final String e, final ModelConfig ensemble, final Map<String, Node> tensors)
    {
        long labels = 0;
        final ArrayDeque<Node> current = new ArrayDeque<>();
        for (final ModelInput input : ensemble.getInputList())
        {
            final Node node = tensors.get(input.getName());
            node.visited = true;
            current.add(node);
        }
        while (!current.isEmpty())
        {
            final Node node = current.poll();
            for (final Node next : node.next)
            {
                if (next.visited || !next.previous.stream().allMatch(previous -> previous.visited))
                {
                    continue;
                }
                final long inherited = next.previous.getFirst().label;
                if (next.previous.stream().anyMatch(previous -> previous.label != inherited))
                {
                    throw new InferenceException(ErrorCode.INVALID_ARG, "in ensemble " + e + ", step of model '"
                        + next.model + "' receives inputs originated from different decoupled models");
                }
                if (next.sibling != null && next.sibling.visited)
                {
                    next.label = next.sibling.label;
                }
                else
                {
                    next.label = next.decoupled ? ++labels : inherited;
                    if (next.sibling != null)
                    {
                        next.sibling.label = next.label;
                        next.sibling.visited = true;
                    }
                }
                next.visited = true;
                current.add(next);
            }
        }
    }
}
