package io.ingot.ensemble;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelEnsembling;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Triton's checks of an ensemble against the models it is built from, made when it loads (core
 * {@code model_repository_manager.cc} for the composing models' availability, {@code ensemble_utils.cc}
 * {@code ValidateEnsembleConfig} for the rest), with Triton's messages: every composing model (and the version a
 * step names) is loaded; no composing model allows a smaller {@code max_batch_size} than the ensemble (0 is
 * exempt); every step maps only inputs and outputs its model has, maps each required input exactly once, and maps
 * no two outputs to one tensor; each ensemble tensor has one datatype and compatible shapes wherever it is used; no
 * step joins tensors from different decoupled models ({@link DecoupledBranching}). Then, beyond Triton, a decoupled
 * step is refused as not supported yet.
 * The ensemble's own configuration was checked when it was read ({@code EnsembleChecks}). Stateless.
 */
public final class EnsembleLinker
{
    /** An ensemble tensor as one model sees it: Triton's {@code TensorNode}. */
    private record TensorView(String model, DataType type, List<Long> dims, List<Long> fullDims)
    {
        static TensorView of(final String model, final boolean batching, final DataType type, final List<Long> dims)
        {
            final List<Long> full = new ArrayList<>(dims.size() + 1);
            if (batching)
            {
                full.add(-1L);
            }
            full.addAll(dims);
            return new TensorView(model, type, dims, full);
        }
    }

    private EnsembleLinker()
    {
    }

    /**
     * @param ensemble the ensemble's configuration (normalized, valid on its own)
     * @param models   the loaded models
     * @return the ensemble's plan
     * @throws InferenceException INVALID_ARG with Triton's message when a check fails
     */
    public static EnsemblePlan link(final ModelConfig ensemble, final StepModels models)
    {
        final String e = ensemble.getName();
        final List<ModelEnsembling.Step> steps = ensemble.getEnsembleScheduling().getStepList();
        final Set<String> missing = new LinkedHashSet<>();
        for (final ModelEnsembling.Step step : steps)
        {
            if (models.loaded(step.getModelName()).isEmpty())
            {
                missing.add(step.getModelName());
            }
        }
        if (!missing.isEmpty())
        {
            throw invalid("ensemble " + e + " contains models that are not available or ambiguous: "
                + String.join(", ", missing));
        }
        final ModelConfig[] configs = new ModelConfig[steps.size()];
        for (int i = 0; i < configs.length; i++)
        {
            final ModelEnsembling.Step step = steps.get(i);
            final NavigableMap<Long, ModelConfig> versions = models.loaded(step.getModelName());
            configs[i] = step.getModelVersion() < 0 ? versions.lastEntry().getValue()
                : versions.get(step.getModelVersion());
            if (configs[i] == null)
            {
                throw invalid("ensemble '" + e + "' depends on '" + step.getModelName() + "' whose required version "
                    + step.getModelVersion() + " is not loaded");
            }
        }
        final Map<String, TensorView> tensors = new HashMap<>();
        final boolean batching = ensemble.getMaxBatchSize() > 0;
        for (final ModelInput input : ensemble.getInputList())
        {
            tensors.put(input.getName(), TensorView.of(e, batching, input.getDataType(),
                input.hasReshape() ? input.getReshape().getShapeList() : input.getDimsList()));
        }
        for (final ModelOutput output : ensemble.getOutputList())
        {
            tensors.put(output.getName(), TensorView.of(e, batching, output.getDataType(),
                output.hasReshape() ? output.getReshape().getShapeList() : output.getDimsList()));
        }
        for (int i = 0; i < configs.length; i++)
        {
            final ModelEnsembling.Step step = steps.get(i);
            final ModelConfig model = configs[i];
            if (model.getMaxBatchSize() != 0 && model.getMaxBatchSize() < ensemble.getMaxBatchSize())
            {
                throw invalid("ensemble " + e + " allows maximum batch size " + ensemble.getMaxBatchSize()
                    + ", but it contains model " + step.getModelName() + " which only allows maximum batch size to be "
                    + model.getMaxBatchSize());
            }
            checkMapping(e, step, model, tensors);
        }
        DecoupledBranching.check(ensemble, configs);
        for (int i = 0; i < configs.length; i++)
        {
            if (configs[i].getModelTransactionPolicy().getDecoupled())
            {
                throw new InferenceException(ErrorCode.UNSUPPORTED, "in ensemble " + e + ", step " + i + " runs model '"
                    + steps.get(i).getModelName() + "', which is decoupled: Ingot's ensembles do not run decoupled"
                    + " steps yet");
            }
        }
        return plan(ensemble, configs);
    }

    /** Triton's {@code ValidateTensorMapping}, in its order. */
    private static void checkMapping(final String e, final ModelEnsembling.Step step, final ModelConfig model,
        final Map<String, TensorView> tensors)
    {
        final String m = step.getModelName();
        final boolean batching = model.getMaxBatchSize() > 0;
        final Set<String> inputNames = model.getInputList().stream().map(ModelInput::getName)
            .collect(Collectors.toSet());
        for (final Map.Entry<String, String> entry : step.getInputMapMap().entrySet())
        {
            if (!inputNames.contains(entry.getKey()))
            {
                throw invalid("in ensemble " + e + ", ensemble tensor " + entry.getValue()
                    + " is mapping to non-existing input " + entry.getKey() + " in model " + m);
            }
        }
        for (final ModelInput input : model.getInputList())
        {
            final String tensor = step.getInputMapMap().get(input.getName());
            if (tensor == null)
            {
                if (input.getOptional())
                {
                    continue;
                }
                throw invalid("in ensemble " + e + ", input " + input.getName() + " in model " + m
                    + " is not mapped to any ensemble tensors");
            }
            // A protobuf map holds each key once, so Triton's "is mapped to multiple ensemble tensors" cannot arise.
            merge(e, tensor, TensorView.of(m, batching, input.getDataType(), input.getDimsList()), tensors);
        }
        final Set<String> outputNames = model.getOutputList().stream().map(ModelOutput::getName)
            .collect(Collectors.toSet());
        for (final Map.Entry<String, String> entry : step.getOutputMapMap().entrySet())
        {
            if (!outputNames.contains(entry.getKey()))
            {
                throw invalid("in ensemble " + e + ", ensemble tensor " + entry.getValue()
                    + " is mapped from non-existing output " + entry.getKey() + " in model " + m);
            }
        }
        for (final ModelOutput output : model.getOutputList())
        {
            final String tensor = step.getOutputMapMap().get(output.getName());
            if (tensor != null)
            {
                merge(e, tensor, TensorView.of(m, batching, output.getDataType(), output.getDimsList()), tensors);
            }
        }
    }

    private static void merge(final String e, final String tensor, final TensorView view,
        final Map<String, TensorView> tensors)
    {
        final TensorView known = tensors.putIfAbsent(tensor, view);
        if (known == null)
        {
            return;
        }
        final String prefix = "in ensemble " + e + ", ensemble tensor " + tensor + ": ";
        if (known.type() != view.type())
        {
            throw invalid(prefix + "inconsistent data type: " + known.type().name() + " is inferred from model "
                + known.model() + " while " + view.type().name() + " is inferred from model " + view.model());
        }
        // As Triton: compatible as given, or once both carry their batch dimension (a non-batching model's
        // [-1, d...] against a batching model's [d...]).
        if (!compatible(known.dims(), view.dims()) && !compatible(known.fullDims(), view.fullDims()))
        {
            throw invalid(prefix + "inconsistent shape: " + dimsText(known.fullDims()) + " is inferred from model "
                + known.model() + " while " + dimsText(view.fullDims()) + " is inferred from model " + view.model());
        }
    }

    /**
     * Triton's {@code CompareDimsWithWildcard}: equal ranks, and each dimension equal or -1 on either side.
     *
     * @param a dims
     * @param b dims
     * @return whether they may describe the same tensor
     */
    static boolean compatible(final List<Long> a, final List<Long> b)
    {
        if (a.size() != b.size())
        {
            return false;
        }
        for (int i = 0; i < a.size(); i++)
        {
            final long x = a.get(i);
            final long y = b.get(i);
            if (x != -1 && y != -1 && x != y)
            {
                return false;
            }
        }
        return true;
    }

    private static String dimsText(final List<Long> dims)
    {
        return dims.stream().map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
    }

    private static EnsemblePlan plan(final ModelConfig ensemble, final ModelConfig[] configs)
    {
        final Map<String, Integer> index = new LinkedHashMap<>();
        final List<ModelEnsembling.Step> steps = ensemble.getEnsembleScheduling().getStepList();
        for (final ModelInput input : ensemble.getInputList())
        {
            index.putIfAbsent(input.getName(), index.size());
        }
        for (final ModelOutput output : ensemble.getOutputList())
        {
            index.putIfAbsent(output.getName(), index.size());
        }
        for (final ModelEnsembling.Step step : steps)
        {
            step.getInputMapMap().values().forEach(t -> index.putIfAbsent(t, index.size()));
            step.getOutputMapMap().values().forEach(t -> index.putIfAbsent(t, index.size()));
        }
        final List<List<Integer>> readers = new ArrayList<>();
        index.keySet().forEach(name -> readers.add(new ArrayList<>()));
        final EnsemblePlan.Step[] planned = new EnsemblePlan.Step[steps.size()];
        for (int i = 0; i < planned.length; i++)
        {
            final ModelEnsembling.Step step = steps.get(i);
            final ModelConfig model = configs[i];
            final List<String> inputs = new ArrayList<>();
            final List<List<Long>> inputDims = new ArrayList<>();
            for (final ModelInput input : model.getInputList())
            {
                if (step.getInputMapMap().containsKey(input.getName()))
                {
                    inputs.add(input.getName());
                    inputDims.add(List.copyOf(input.getDimsList()));
                }
            }
            final int[] inputTensors = inputs.stream().mapToInt(n -> index.get(step.getInputMapMap().get(n)))
                .toArray();
            final Set<Integer> distinct = new LinkedHashSet<>();
            for (final int t : inputTensors)
            {
                if (distinct.add(t))
                {
                    readers.get(t).add(i);
                }
            }
            final List<String> outputs = new ArrayList<>(step.getOutputMapMap().keySet());
            final int[] outputTensors = outputs.stream().mapToInt(n -> index.get(step.getOutputMapMap().get(n)))
                .toArray();
            planned[i] = new EnsemblePlan.Step(i, step.getModelName(), step.getModelVersion(), model,
                inputs.toArray(String[]::new), inputTensors, List.copyOf(inputDims), outputs.toArray(String[]::new),
                outputTensors, distinct.size());
        }
        final int[][] consumers = readers.stream().map(r -> r.stream().mapToInt(Integer::intValue).toArray())
            .toArray(int[][]::new);
        return new EnsemblePlan(ensemble.getName(), ensemble, index.keySet().toArray(String[]::new),
            ensemble.getInputList().stream().mapToInt(in -> index.get(in.getName())).toArray(),
            ensemble.getOutputList().stream().mapToInt(out -> index.get(out.getName())).toArray(),
            ensemble.getOutputList().stream().map(out -> List.copyOf(out.getDimsList())).toList(), planned,
            consumers);
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
