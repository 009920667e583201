package io.ingot.onnx.writer;

import com.google.protobuf.UnsafeByteOperations;
import io.ingot.onnx.writer.proto.AttributeProto;
import io.ingot.onnx.writer.proto.GraphProto;
import io.ingot.onnx.writer.proto.ModelProto;
import io.ingot.onnx.writer.proto.NodeProto;
import io.ingot.onnx.writer.proto.OperatorSetIdProto;
import io.ingot.onnx.writer.proto.TensorProto;
import io.ingot.onnx.writer.proto.TensorShapeProto;
import io.ingot.onnx.writer.proto.TypeProto;
import io.ingot.onnx.writer.proto.ValueInfoProto;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Assembles an ONNX model: typed graph inputs and outputs, initializers (weights) and nodes in topological order.
 * The result is an ordinary {@code .onnx} file (IR version 8, default opset 17) that ONNX Runtime loads.
 *
 * <pre>{@code
 * OnnxModelBuilder model = new OnnxModelBuilder("add");
 * model.input("A", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.of(4));
 * model.input("B", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.of(4));
 * model.output("C", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.of(4));
 * model.node("Add", List.of("A", "B"), "C");
 * OnnxModelBuilder.write(model.build(), path);
 * }</pre>
 */
public final class OnnxModelBuilder
{
    /** The ONNX IR version written (ONNX 1.13+; ONNX Runtime 1.14+ reads it). */
    public static final long IR_VERSION = 8;
    /** The default-domain opset the nodes are written against. */
    public static final long OPSET = 17;

    private static final ValueLayout.OfFloat FLOAT_LE =
        ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final GraphProto.Builder graph = GraphProto.newBuilder();
    private String producerName = "ingot";
    private String producerVersion = "";
    private String docString = "";
    private int nodeCount;

    /**
     * @param graphName the graph's name
     */
    public OnnxModelBuilder(final String graphName)
    {
        graph.setName(graphName);
    }

    /**
     * @param name    producer name recorded in the model
     * @param version producer version recorded in the model
     * @return this
     */
    public OnnxModelBuilder producer(final String name, final String version)
    {
        producerName = name;
        producerVersion = version;
        return this;
    }

    /**
     * @param text a description recorded in the model
     * @return this
     */
    public OnnxModelBuilder docString(final String text)
    {
        docString = text;
        return this;
    }

    /**
     * Declares a graph input.
     *
     * @param name tensor name
     * @param type element type
     * @param dims its dimensions
     * @return this
     */
    public OnnxModelBuilder input(final String name, final TensorProto.DataType type, final Dim... dims)
    {
        graph.addInput(valueInfo(name, type, dims));
        return this;
    }

    /**
     * Declares a graph output.
     *
     * @param name tensor name
     * @param type element type
     * @param dims its dimensions
     * @return this
     */
    public OnnxModelBuilder output(final String name, final TensorProto.DataType type, final Dim... dims)
    {
        graph.addOutput(valueInfo(name, type, dims));
        return this;
    }

    /**
     * Adds a weight whose bytes are already little-endian and row-major. The array is wrapped, not copied: do not
     * modify it afterwards.
     *
     * @param name     tensor name
     * @param type     element type
     * @param dims     shape
     * @param rawBytes the elements, {@code product(dims) * elementSize} bytes
     * @return this
     */
    public OnnxModelBuilder initializer(final String name, final TensorProto.DataType type, final long[] dims,
        final byte[] rawBytes)
    {
        final TensorProto.Builder tensor = TensorProto.newBuilder().setName(name).setDataType(type.getNumber());
        for (final long dim : dims)
        {
            tensor.addDims(dim);
        }
        tensor.setRawData(UnsafeByteOperations.unsafeWrap(rawBytes));
        graph.addInitializer(tensor);
        return this;
    }

    /**
     * Adds a float weight.
     *
     * @param name   tensor name
     * @param dims   shape
     * @param values the elements, row-major
     * @return this
     */
    public OnnxModelBuilder floatInitializer(final String name, final long[] dims, final float... values)
    {
        checkCount(name, dims, values.length);
        final byte[] bytes = new byte[values.length * Float.BYTES];
        final MemorySegment target = MemorySegment.ofArray(bytes);
        for (int i = 0; i < values.length; i++)
        {
            target.setAtIndex(FLOAT_LE, i, values[i]);
        }
        return initializer(name, TensorProto.DataType.FLOAT, dims, bytes);
    }

    /**
     * Adds an int64 weight (shapes, axes).
     *
     * @param name   tensor name
     * @param dims   shape
     * @param values the elements, row-major
     * @return this
     */
    public OnnxModelBuilder longInitializer(final String name, final long[] dims, final long... values)
    {
        checkCount(name, dims, values.length);
        final byte[] bytes = new byte[values.length * Long.BYTES];
        final MemorySegment target = MemorySegment.ofArray(bytes);
        for (int i = 0; i < values.length; i++)
        {
            target.setAtIndex(LONG_LE, i, values[i]);
        }
        return initializer(name, TensorProto.DataType.INT64, dims, bytes);
    }

    /**
     * Appends a node of the default domain. Nodes must be added in topological order.
     *
     * @param opType     operator, e.g. {@code "Conv"}
     * @param inputs     input tensor names
     * @param output     the output tensor name
     * @param attributes its attributes
     * @return {@code output}, for chaining layers
     */
    public String node(final String opType, final List<String> inputs, final String output,
        final AttributeProto... attributes)
    {
        final NodeProto.Builder node = NodeProto.newBuilder()
            .setName(opType.toLowerCase() + "_" + nodeCount++)
            .setOpType(opType)
            .addAllInput(inputs)
            .addOutput(output);
        for (final AttributeProto attribute : attributes)
        {
            node.addAttribute(attribute);
        }
        graph.addNode(node);
        return output;
    }

    /** @return the model. */
    public ModelProto build()
    {
        return ModelProto.newBuilder()
            .setIrVersion(IR_VERSION)
            .setProducerName(producerName)
            .setProducerVersion(producerVersion)
            .setDocString(docString)
            .setGraph(graph)
            .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(OPSET))
            .build();
    }

    /**
     * Writes a model to a file atomically: into a temporary file next to it, then renamed, so that a reader never
     * sees half a model. The file gets the process's default permissions.
     *
     * @param model the model
     * @param file  destination; its directory is created when missing
     * @throws IOException when the file cannot be written
     */
    public static void write(final ModelProto model, final Path file) throws IOException
    {
        final Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        final Path temporary = directory.resolve("." + file.getFileName() + ".tmp");
        try
        {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temporary), 1 << 20))
            {
                model.writeTo(out);
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        finally
        {
            Files.deleteIfExists(temporary);
        }
    }

    private static ValueInfoProto valueInfo(final String name, final TensorProto.DataType type, final Dim... dims)
    {
        final TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        for (final Dim dim : dims)
        {
            final TensorShapeProto.Dimension.Builder dimension = TensorShapeProto.Dimension.newBuilder();
            switch (dim)
            {
                case Dim.Fixed fixed -> dimension.setDimValue(fixed.size());
                case Dim.Named named -> dimension.setDimParam(named.name());
            }
            shape.addDim(dimension);
        }
        final TypeProto.Tensor tensor = TypeProto.Tensor.newBuilder()
            .setElemType(type.getNumber())
            .setShape(shape)
            .build();
        return ValueInfoProto.newBuilder().setName(name).setType(TypeProto.newBuilder().setTensorType(tensor)).build();
    }

    private static void checkCount(final String name, final long[] dims, final int count)
    {
        long expected = 1;
        for (final long dim : dims)
        {
            expected *= dim;
        }
        if (expected != count)
        {
            throw new IllegalArgumentException("initializer '" + name + "' has " + count + " values but its shape "
                + java.util.Arrays.toString(dims) + " needs " + expected);
        }
    }
}
