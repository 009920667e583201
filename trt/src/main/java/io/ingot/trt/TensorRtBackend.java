package io.ingot.trt;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.trt.gpu.DeviceMemoryOps;
import io.ingot.trt.gpu.DeviceStream;
import io.ingot.trt.gpu.GpuModelSupport;
import io.ingot.trt.shim.TrtCudaEngine;
import io.ingot.trt.shim.TrtException;
import io.ingot.trt.shim.TrtRuntime;
import io.ingot.trt.shim.TrtShim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One loaded {@code tensorrt_plan} model version: a TensorRT runtime, the engine deserialized once per GPU its
 * instances use (a TensorRT engine belongs to the device it was deserialized on), the configuration checked
 * against the engine, and the ledger of which instance uses which optimization profile.
 */
final class TensorRtBackend implements Backend
{
    /** Model parameter: {@code "true"} captures CUDA graphs (same as Triton's {@code optimization.cuda.graphs}). */
    static final String GRAPHS_PARAMETER = "cuda_graphs";
    /** Model parameter: normal runs of an input shape before its graph is captured (default 1). */
    static final String GRAPH_WARMUP_PARAMETER = "cuda_graph_warmup_runs";
    /** Model parameter: most graphs one instance keeps (default 32). */
    static final String GRAPH_CAPACITY_PARAMETER = "cuda_graph_max_count";

    private final String label;
    private final Path planFile;
    private final DeviceMemoryOps ops;
    private final TrtRuntime runtime;
    private final Map<Integer, TrtCudaEngine> engines = new TreeMap<>();
    private final ModelBinding binding;
    private final ProfileLedger ledger;
    private final boolean useGraphs;
    private final int graphWarmupRuns;
    private final int graphCapacity;
    private boolean closed;

    private TensorRtBackend(final String label, final Path planFile, final DeviceMemoryOps ops,
        final TrtRuntime runtime, final int device, final TrtCudaEngine engine, final ModelConfig config)
    {
        this.label = label;
        this.planFile = planFile;
        this.ops = ops;
        this.runtime = runtime;
        this.engines.put(device, engine);
        this.binding = ModelBinding.bind(label, config, engine.signature());
        this.ledger = new ProfileLedger(label, engine.signature().profiles().size(),
            engine.signature().hasDynamicShapes());
        this.useGraphs = config.getOptimization().getCuda().getGraphs()
            || "true".equalsIgnoreCase(parameter(config, GRAPHS_PARAMETER, "false").trim());
        this.graphWarmupRuns = intParameter(label, config, GRAPH_WARMUP_PARAMETER, 1, 1);
        this.graphCapacity = intParameter(label, config, GRAPH_CAPACITY_PARAMETER, 32, 0);
    }

    /**
     * Loads a model version: deserializes its plan on the first GPU its instance groups name and checks the
     * configuration against the engine.
     *
     * @param context the model version
     * @param ops     how to reach the device
     * @return the loaded model
     * @throws IllegalStateException    naming the model and the cause when TensorRT, the GPU or the plan is unusable
     * @throws IllegalArgumentException naming the model, tensor and field when the configuration disagrees with the
     *                                  engine
     */
    static TensorRtBackend load(final ModelContext context, final DeviceMemoryOps ops)
    {
        final String label = GpuModelSupport.label(context);
        final Path plan = context.modelFile();
        if (plan == null || !Files.isRegularFile(plan))
        {
            throw new IllegalStateException(label + ": TensorRT plan " + (plan == null ? "(none: an in-memory model "
                + "needs a model directory)" : plan + " does not exist or is not a file"));
        }
        requireTensorRt(label);
        final int device = firstDevice(context.config());
        useDevice(label, ops, device);
        final TrtRuntime runtime = createRuntime(label);
        TrtCudaEngine engine = null;
        try
        {
            engine = deserialize(label, runtime, plan);
            return new TensorRtBackend(label, plan, ops, runtime, device, engine, context.config());
        }
        catch (final RuntimeException failure)
        {
            if (engine != null)
            {
                engine.close();
            }
            runtime.close();
            throw failure;
        }
    }

    /** @return the configuration as checked against the engine */
    ModelBinding binding()
    {
        return binding;
    }

    @Override
    public Engine createEngine(final InstanceContext instance) throws Exception
    {
        final String instanceLabel = GpuModelSupport.requireGpuInstance(label, instance, "TensorRT");
        final int device = Math.max(0, instance.deviceId());
        final TrtCudaEngine engine = engineFor(device);
        final List<Integer> profiles = ledger.claim(instance.name(), instance.profiles());
        try
        {
            if (binding.batching())
            {
                checkBatchCoverage(instanceLabel, profiles);
            }
            ops.useDevice(device);
            final DeviceStream stream = ops.openStream(device);
            return TensorRtInstance.open(instanceLabel, binding, engine, stream, profiles, useGraphs,
                graphWarmupRuns, graphCapacity, () -> ledger.release(instance.name()));
        }
        catch (final RuntimeException failure)
        {
            ledger.release(instance.name());
            throw failure;
        }
    }

    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        engines.values().forEach(TrtCudaEngine::close);
        engines.clear();
        runtime.close();
    }

    private synchronized TrtCudaEngine engineFor(final int device)
    {
        if (closed)
        {
            throw new IllegalStateException(label + " is unloaded");
        }
        TrtCudaEngine engine = engines.get(device);
        if (engine == null)
        {
            useDevice(label, ops, device);
            engine = deserialize(label + " on GPU " + device, runtime, planFile);
            engines.put(device, engine);
        }
        return engine;
    }

    private void checkBatchCoverage(final String instanceLabel, final List<Integer> profiles)
    {
        long largest = 0;
        long smallest = Long.MAX_VALUE;
        for (final int profile : profiles)
        {
            largest = Math.max(largest, binding.signature().maxBatch(profile));
            smallest = Math.min(smallest, binding.signature().minBatch(profile));
        }
        if (largest < binding.maxBatchSize() || smallest > 1)
        {
            throw new IllegalArgumentException(instanceLabel + ": its optimization profiles " + profiles
                + " allow batch sizes " + smallest + " to " + largest + ", but max_batch_size is "
                + binding.maxBatchSize() + " and every batch size from 1 must be served; list profiles that cover "
                + "1.." + binding.maxBatchSize() + " in instance_group profile, or lower max_batch_size");
        }
    }

    static void requireTensorRt(final String label)
    {
        final var reason = TrtShim.unavailableReason();
        if (reason.isPresent())
        {
            throw new IllegalStateException(label + ": TensorRT is not available: " + reason.get());
        }
    }

    static void useDevice(final String label, final DeviceMemoryOps ops, final int device)
    {
        GpuModelSupport.useDevice(label, ops, device);
    }

    static TrtRuntime createRuntime(final String label)
    {
        try
        {
            return TrtRuntime.create();
        }
        catch (final TrtException failure)
        {
            throw new IllegalStateException(label + ": " + failure.getMessage(), failure);
        }
    }

    static TrtCudaEngine deserialize(final String label, final TrtRuntime runtime, final Path plan)
    {
        try
        {
            return runtime.deserialize(plan);
        }
        catch (final TrtException failure)
        {
            throw new IllegalStateException(label + ": cannot load TensorRT plan " + plan + ": "
                + failure.getMessage(), failure);
        }
        catch (final IOException failure)
        {
            throw new IllegalStateException(label + ": cannot read TensorRT plan " + plan + ": " + failure, failure);
        }
    }

    static int firstDevice(final ModelConfig config)
    {
        return GpuModelSupport.firstDevice(config);
    }

    private static String parameter(final ModelConfig config, final String key, final String defaultValue)
    {
        final var parameter = config.getParametersMap().get(key);
        return parameter == null ? defaultValue : parameter.getStringValue();
    }

    private static int intParameter(final String label, final ModelConfig config, final String key,
        final int defaultValue, final int minimum)
    {
        final String text = parameter(config, key, Integer.toString(defaultValue)).trim();
        try
        {
            final int value = Integer.parseInt(text);
            if (value < minimum)
            {
                throw new NumberFormatException();
            }
            return value;
        }
        catch (final NumberFormatException notNumber)
        {
            throw new IllegalArgumentException(label + ": parameter '" + key + "' is '" + text
                + "'; expected an integer >= " + minimum);
        }
    }
}
