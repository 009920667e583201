package io.ingot.onnx.writer;

import io.ingot.onnx.writer.proto.AttributeProto;
import io.ingot.onnx.writer.proto.AttributeProto.AttributeType;

/**
 * Builds the node attributes the writer uses, each with its {@code type} discriminator set as ONNX IR version 2 and
 * later require.
 */
public final class Attributes
{
    private Attributes()
    {
    }

    /**
     * @param name  attribute name
     * @param value its value
     * @return an {@code INT} attribute
     */
    public static AttributeProto intValue(final String name, final long value)
    {
        return AttributeProto.newBuilder().setName(name).setType(AttributeType.INT).setI(value).build();
    }

    /**
     * @param name   attribute name
     * @param values its values
     * @return an {@code INTS} attribute
     */
    public static AttributeProto ints(final String name, final long... values)
    {
        final AttributeProto.Builder builder = AttributeProto.newBuilder().setName(name).setType(AttributeType.INTS);
        for (final long value : values)
        {
            builder.addInts(value);
        }
        return builder.build();
    }

    /**
     * @param name  attribute name
     * @param value its value
     * @return a {@code FLOAT} attribute
     */
    public static AttributeProto floatValue(final String name, final float value)
    {
        return AttributeProto.newBuilder().setName(name).setType(AttributeType.FLOAT).setF(value).build();
    }
}
