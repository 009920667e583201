package io.ingot.tensorflow.savedmodel;

import com.google.protobuf.ByteString;
import io.ingot.tensor.DataType;
import io.ingot.tensorflow.proto.AttrValue;
import io.ingot.tensorflow.proto.GraphDef;
import io.ingot.tensorflow.proto.NodeDef;
import io.ingot.tensorflow.proto.TensorProto;
import io.ingot.tensorflow.proto.TensorShapeProto;
import io.ingot.tensorflow.proto.VersionDef;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Builds a TensorFlow {@code GraphDef} node by node, with every attribute the ops' registrations require (nothing is
 * left to TensorFlow's defaults), for the SavedModels this project writes: placeholders, constants and a few
 * element-wise and matrix ops. Each method adds one node and returns the name of its first output ({@code "name"},
 * which TensorFlow reads as {@code "name:0"}). Not thread-safe.
 */
public final class GraphBuilder
{
    /** The {@code GraphDef} version written: TensorFlow 2.12's {@code TF_GRAPH_DEF_VERSION}, which 2.18 reads. */
    public static final int PRODUCER = 1394;

    private final GraphDef.Builder graph = GraphDef.newBuilder()
        .setVersions(VersionDef.newBuilder().setProducer(PRODUCER));

    /**
     * @param name  the node (and tensor) name
     * @param type  its element type
     * @param shape its shape, {@code -1} where any size is accepted
     * @return the tensor name
     */
    public String placeholder(final String name, final DataType type, final long... shape)
    {
        return add(NodeDef.newBuilder().setName(name).setOp("Placeholder")
            .putAttr("dtype", type(type))
            .putAttr("shape", AttrValue.newBuilder().setShape(shape(shape)).build()));
    }

    /**
     * @param name   the node name
     * @param input  the tensor it forwards
     * @param type   its element type
     * @return the tensor name
     */
    public String identity(final String name, final String input, final DataType type)
    {
        return unary("Identity", name, input, type);
    }

    /**
     * @param op     a unary op taking attribute {@code T} ({@code Identity}, {@code Neg}, {@code Square}, ...)
     * @param name   the node name
     * @param input  its input
     * @param type   {@code T}
     * @return the tensor name
     */
    public String unary(final String op, final String name, final String input, final DataType type)
    {
        return add(NodeDef.newBuilder().setName(name).setOp(op).addInput(input).putAttr("T", type(type)));
    }

    /**
     * @param op    a binary op taking attribute {@code T} ({@code AddV2}, {@code Sub}, {@code Mul}, ...)
     * @param name  the node name
     * @param left  its first input
     * @param right its second input
     * @param type  {@code T}
     * @return the tensor name
     */
    public String binary(final String op, final String name, final String left, final String right,
        final DataType type)
    {
        return add(NodeDef.newBuilder().setName(name).setOp(op).addInput(left).addInput(right)
            .putAttr("T", type(type)));
    }

    /**
     * @param name  the node name
     * @param left  {@code [m, k]}
     * @param right {@code [k, n]}
     * @param type  {@code T}
     * @return the tensor name ({@code [m, n]})
     */
    public String matMul(final String name, final String left, final String right, final DataType type)
    {
        return add(NodeDef.newBuilder().setName(name).setOp("MatMul").addInput(left).addInput(right)
            .putAttr("T", type(type))
            .putAttr("transpose_a", AttrValue.newBuilder().setB(false).build())
            .putAttr("transpose_b", AttrValue.newBuilder().setB(false).build()));
    }

    /**
     * @param name   the node name
     * @param shape  the constant's shape
     * @param values its values, row-major
     * @return the tensor name
     */
    public String constant(final String name, final long[] shape, final float[] values)
    {
        final ByteBuffer bytes = ByteBuffer.allocate(values.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (final float value : values)
        {
            bytes.putFloat(value);
        }
        return constant(name, TensorProto.newBuilder().setDtype(io.ingot.tensorflow.proto.DataType.DT_FLOAT)
            .setTensorShape(shape(shape)).setTensorContent(ByteString.copyFrom(bytes.array())).build());
    }

    /**
     * @param name   the node name
     * @param shape  the constant's shape
     * @param values its values, row-major
     * @return the tensor name (an INT32 constant: an axis, a shape)
     */
    public String constant(final String name, final long[] shape, final int... values)
    {
        final TensorProto.Builder tensor = TensorProto.newBuilder()
            .setDtype(io.ingot.tensorflow.proto.DataType.DT_INT32).setTensorShape(shape(shape));
        for (final int value : values)
        {
            tensor.addIntVal(value);
        }
        return constant(name, tensor.build());
    }

    /**
     * @param name  the node name
     * @param value a scalar string
     * @return the tensor name
     */
    public String constant(final String name, final String value)
    {
        return constant(name, TensorProto.newBuilder().setDtype(io.ingot.tensorflow.proto.DataType.DT_STRING)
            .setTensorShape(TensorShapeProto.getDefaultInstance())
            .addStringVal(ByteString.copyFrom(value, StandardCharsets.UTF_8)).build());
    }

    private String constant(final String name, final TensorProto value)
    {
        return add(NodeDef.newBuilder().setName(name).setOp("Const")
            .putAttr("dtype", AttrValue.newBuilder().setTypeValue(value.getDtypeValue()).build())
            .putAttr("value", AttrValue.newBuilder().setTensor(value).build()));
    }

    /**
     * @param name      the node name
     * @param inputs    string tensors of one shape (or scalars, broadcast)
     * @param separator what goes between them
     * @return the tensor name: the element-wise concatenation
     */
    public String stringJoin(final String name, final List<String> inputs, final String separator)
    {
        final NodeDef.Builder node = NodeDef.newBuilder().setName(name).setOp("StringJoin")
            .putAttr("N", AttrValue.newBuilder().setI(inputs.size()).build())
            .putAttr("separator", AttrValue.newBuilder().setS(ByteString.copyFrom(separator, StandardCharsets.UTF_8))
                .build());
        inputs.forEach(node::addInput);
        return add(node);
    }

    /**
     * Adds any node: for ops the methods above do not cover.
     *
     * @param node the node, with its inputs and attributes
     * @return its name
     */
    public String add(final NodeDef.Builder node)
    {
        graph.addNode(node);
        return node.getName();
    }

    /** @return the graph so far */
    public GraphDef build()
    {
        return graph.build();
    }

    /**
     * @param type an Ingot type
     * @return the {@code type} attribute value for it
     */
    public static AttrValue type(final DataType type)
    {
        return AttrValue.newBuilder().setTypeValue(DataTypes.toTf(type)).build();
    }

    /**
     * @param dims dimensions, {@code -1} where unknown
     * @return the shape
     */
    public static TensorShapeProto shape(final long... dims)
    {
        final TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        for (final long dim : dims)
        {
            shape.addDim(TensorShapeProto.Dim.newBuilder().setSize(dim));
        }
        return shape.build();
    }
}
