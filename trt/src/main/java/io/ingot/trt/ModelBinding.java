package io.ingot.trt;

import io.ingot.tensor.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.trt.shim.EngineSignature;
import io.ingot.trt.shim.EngineTensor;
import io.ingot.trt.shim.Shapes;
import io.ingot.trt.shim.TensorIoMode;
import io.ingot.trt.shim.TrtTensorFormat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A model configuration checked against an engine: every configured tensor exists in the engine with the same
 * direction, element type and a compatible shape; every engine input is configured; the engine's I/O is in the
 * row-major format Triton's protocol carries. Produced by {@link #bind}, whose errors name the model, the tensor,
 * the field and what the engine has instead.
 *
 * @param label        {@code model 'name' version v}, the prefix of every message about the model
 * @param signature    the engine's tensors and profiles
 * @param maxBatchSize the configuration's {@code max_batch_size} ({@code 0}: the model does not batch)
 * @param inputs       bindings of the engine inputs, in engine order
 * @param outputs      bindings of the engine outputs, in engine order
 */
public record ModelBinding(String label, EngineSignature signature, int maxBatchSize, List<TensorBinding> inputs,
    List<TensorBinding> outputs)
{
    /** Copies the lists. */
    public ModelBinding
    {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }

    /** @return true when requests carry a leading batch dimension */
    public boolean batching()
    {
        return maxBatchSize > 0;
    }

    /**
     * Checks a configuration against an engine.
     *
     * @param label     the model's label for messages, e.g. {@code model 'resnet' version 1}
     * @param config    the normalized configuration
     * @param signature the engine's signature
     * @return the binding
     * @throws IllegalArgumentException naming the model, tensor and mismatch
     */
    public static ModelBinding bind(final String label, final ModelConfig config, final EngineSignature signature)
    {
        final boolean batching = config.getMaxBatchSize() > 0;
        final List<TensorBinding> inputs = new ArrayList<>();
        final List<TensorBinding> outputs = new ArrayList<>();
        for (final ModelInput input : config.getInputList())
        {
            final EngineTensor tensor = engineTensor(label, signature, input.getName(), TensorIoMode.INPUT);
            if (input.getIsShapeTensor() || tensor.shapeTensor())
            {
                throw new IllegalArgumentException(label + ": input '" + input.getName()
                    + "' is a shape tensor; Ingot's TensorRT backend does not serve shape tensors yet");
            }
            final long[] reshape = input.hasReshape() ? toArray(input.getReshape().getShapeList()) : null;
            final long[] dims = toArray(input.getDimsList());
            check(label, "input", tensor, input.getDataType().getNumber(), dims, reshape, batching,
                config.getMaxBatchSize());
        }
        for (final ModelOutput output : config.getOutputList())
        {
            final EngineTensor tensor = engineTensor(label, signature, output.getName(), TensorIoMode.OUTPUT);
            if (output.getIsShapeTensor() || tensor.shapeTensor())
            {
                throw new IllegalArgumentException(label + ": output '" + output.getName()
                    + "' is a shape tensor; Ingot's TensorRT backend does not serve shape tensors yet");
            }
            final long[] reshape = output.hasReshape() ? toArray(output.getReshape().getShapeList()) : null;
            check(label, "output", tensor, output.getDataType().getNumber(), toArray(output.getDimsList()), reshape,
                batching, config.getMaxBatchSize());
        }
        for (final EngineTensor tensor : signature.tensors())
        {
            if (tensor.isInput())
            {
                final ModelInput input = config.getInputList().stream()
                    .filter(candidate -> candidate.getName().equals(tensor.name())).findFirst().orElse(null);
                if (input == null)
                {
                    throw new IllegalArgumentException(label + ": the TensorRT engine's input '" + tensor.name()
                        + "' (" + tensor.dataType().trtName() + " " + Shapes.format(tensor.shape())
                        + ") is missing from config.pbtxt; every engine input must be configured (configured inputs: "
                        + config.getInputList().stream().map(ModelInput::getName).toList() + ")");
                }
                inputs.add(new TensorBinding(tensor, true, tensor.dataType().ingotType(),
                    toArray(input.getDimsList()),
                    input.hasReshape() ? toArray(input.getReshape().getShapeList()) : null, batching));
            }
            else if (tensor.mode() == TensorIoMode.OUTPUT)
            {
                final ModelOutput output = config.getOutputList().stream()
                    .filter(candidate -> candidate.getName().equals(tensor.name())).findFirst().orElse(null);
                if (output == null)
                {
                    // Computed by the engine into a buffer of its own, never returned.
                    outputs.add(new TensorBinding(tensor, false, tensor.dataType().ingotType(), null, null,
                        batching));
                }
                else
                {
                    outputs.add(new TensorBinding(tensor, true, tensor.dataType().ingotType(),
                        toArray(output.getDimsList()),
                        output.hasReshape() ? toArray(output.getReshape().getShapeList()) : null, batching));
                }
            }
        }
        if (batching)
        {
            checkBatchRange(label, signature, config.getMaxBatchSize());
        }
        return new ModelBinding(label, signature, config.getMaxBatchSize(), inputs, outputs);
    }

    private static EngineTensor engineTensor(final String label, final EngineSignature signature, final String name,
        final TensorIoMode mode)
    {
        final EngineTensor tensor = signature.tensor(name);
        final String kind = mode == TensorIoMode.INPUT ? "input" : "output";
        if (tensor == null || tensor.mode() != mode)
        {
            final List<EngineTensor> same = mode == TensorIoMode.INPUT ? signature.inputs() : signature.outputs();
            throw new IllegalArgumentException(label + ": " + kind + " '" + name + "' of config.pbtxt is not an "
                + kind + " of the TensorRT engine" + (tensor == null ? "" : " (the engine has it as an "
                + tensor.mode().name().toLowerCase(java.util.Locale.ROOT) + ")") + "; engine " + kind + "s: "
                + same.stream().map(EngineTensor::toString).collect(Collectors.joining(", ")));
        }
        if (tensor.format() != TrtTensorFormat.LINEAR)
        {
            throw new IllegalArgumentException(label + ": " + kind + " '" + name + "' has TensorRT format k"
                + tensor.format() + "; Ingot serves only row-major (kLINEAR) I/O. Rebuild the engine with linear I/O "
                + "formats (trtexec --inputIOFormats/--outputIOFormats=<type>:chw)");
        }
        return tensor;
    }

    private static void check(final String label, final String kind, final EngineTensor tensor,
        final int configType, final long[] dims, final long[] reshape, final boolean batching,
        final int maxBatchSize)
    {
        final DataType served = tensor.dataType().ingotType();
        final DataType configured = DataType.fromConfigNumber(configType);
        if (served == null)
        {
            throw new IllegalArgumentException(label + ": " + kind + " '" + tensor.name() + "' has TensorRT type "
                + tensor.dataType().trtName() + ", which has no Triton data type; build the engine with I/O in a "
                + "type Triton serves (FP32, FP16, BF16, INT8, UINT8, INT32, INT64, BOOL)");
        }
        if (configured != served)
        {
            throw new IllegalArgumentException(label + ": " + kind + " '" + tensor.name() + "' is TYPE_"
                + (configured == null ? "INVALID" : configName(configured)) + " in config.pbtxt but the engine's "
                + "tensor is " + tensor.dataType().trtName() + " (TYPE_" + configName(served) + ")");
        }
        final long[] side = reshape != null ? reshape : dims;
        final int offset = batching ? 1 : 0;
        final long[] engineShape = tensor.shape();
        final String configuredShape = (batching ? "[batch] + " : "") + Shapes.format(side)
            + (reshape != null ? " (reshape)" : " (dims)");
        if (engineShape.length != side.length + offset)
        {
            throw new IllegalArgumentException(label + ": " + kind + " '" + tensor.name() + "' has engine shape "
                + Shapes.format(engineShape) + " (rank " + engineShape.length + ") but config.pbtxt gives "
                + configuredShape + " (rank " + (side.length + offset) + ")"
                + (batching ? "; with max_batch_size " + maxBatchSize + " > 0 the engine's first dimension is the "
                + "batch" : ""));
        }
        if (batching && engineShape[0] != -1)
        {
            throw new IllegalArgumentException(label + ": max_batch_size is " + maxBatchSize + " but the engine's "
                + kind + " '" + tensor.name() + "' has a fixed first dimension " + engineShape[0] + " in "
                + Shapes.format(engineShape) + "; build the engine with a dynamic batch dimension "
                + "(trtexec --minShapes/--optShapes/--maxShapes) or set max_batch_size: 0 and give full shapes");
        }
        for (int i = 0; i < side.length; i++)
        {
            final long engineDim = engineShape[i + offset];
            if (engineDim >= 0 && side[i] != engineDim)
            {
                throw new IllegalArgumentException(label + ": " + kind + " '" + tensor.name() + "' dimension " + i
                    + " is " + side[i] + " in config.pbtxt " + configuredShape + " but the engine fixes it to "
                    + engineDim + " in " + Shapes.format(engineShape));
            }
        }
    }

    private static void checkBatchRange(final String label, final EngineSignature signature, final int maxBatchSize)
    {
        long best = 0;
        for (int p = 0; p < signature.profiles().size(); p++)
        {
            best = Math.max(best, signature.maxBatch(p));
        }
        if (best < maxBatchSize)
        {
            throw new IllegalArgumentException(label + ": max_batch_size is " + maxBatchSize
                + " but no optimization profile of the engine allows a batch above " + best + " ("
                + signature.profiles() + "); lower max_batch_size or rebuild the engine with --maxShapes batch >= "
                + maxBatchSize);
        }
    }

    static String configName(final DataType type)
    {
        return type == DataType.BYTES ? "STRING" : type.name();
    }

    static long[] toArray(final List<Long> values)
    {
        final long[] array = new long[values.size()];
        for (int i = 0; i < array.length; i++)
        {
            array[i] = values.get(i);
        }
        return array;
    }
}
