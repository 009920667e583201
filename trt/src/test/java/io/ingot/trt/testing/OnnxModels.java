package io.ingot.trt.testing;

import com.google.protobuf.CodedOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Writes small ONNX models for {@code trtexec} to build engines from, encoding ONNX's protobuf messages by field
 * number ({@code onnx/onnx.proto}: ModelProto, GraphProto, NodeProto, ValueInfoProto, TypeProto,
 * TensorShapeProto) so that no ONNX library is needed.
 */
public final class OnnxModels
{
    private static final int FLOAT = 1;

    private OnnxModels()
    {
    }

    /**
     * {@code OUTPUT0 = INPUT0 + INPUT1}, {@code OUTPUT1 = INPUT0 - INPUT1}, all FP32 of shape {@code [batch, width]}
     * with a symbolic batch dimension (opset 17, IR version 8).
     *
     * @param width the second dimension
     * @return the model's bytes
     */
    public static byte[] addSub(final int width)
    {
        final byte[] graph = new Message()
            .message(1, node("add", "Add", "OUTPUT0"))
            .message(1, node("sub", "Sub", "OUTPUT1"))
            .string(2, "ingot_add_sub")
            .message(11, tensor("INPUT0", width))
            .message(11, tensor("INPUT1", width))
            .message(12, tensor("OUTPUT0", width))
            .message(12, tensor("OUTPUT1", width))
            .bytes();
        return new Message()
            .int64(1, 8)
            .string(2, "ingot-tests")
            .message(7, graph)
            .message(8, new Message().int64(2, 17).bytes())
            .bytes();
    }

    private static byte[] node(final String name, final String op, final String output)
    {
        return new Message().string(1, "INPUT0").string(1, "INPUT1").string(2, output).string(3, name)
            .string(4, op).bytes();
    }

    private static byte[] tensor(final String name, final int width)
    {
        final byte[] shape = new Message()
            .message(1, new Message().string(2, "batch").bytes())
            .message(1, new Message().int64(1, width).bytes())
            .bytes();
        final byte[] tensorType = new Message().int64(1, FLOAT).message(2, shape).bytes();
        final byte[] type = new Message().message(1, tensorType).bytes();
        return new Message().string(1, name).message(2, type).bytes();
    }

    /** One protobuf message being written. */
    private static final class Message
    {
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private final CodedOutputStream out = CodedOutputStream.newInstance(buffer);

        Message string(final int field, final String value)
        {
            try
            {
                out.writeString(field, value);
            }
            catch (final IOException impossible)
            {
                throw new UncheckedIOException(impossible);
            }
            return this;
        }

        Message int64(final int field, final long value)
        {
            try
            {
                out.writeInt64(field, value);
            }
            catch (final IOException impossible)
            {
                throw new UncheckedIOException(impossible);
            }
            return this;
        }

        Message message(final int field, final byte[] encoded)
        {
            try
            {
                out.writeByteArray(field, encoded);
            }
            catch (final IOException impossible)
            {
                throw new UncheckedIOException(impossible);
            }
            return this;
        }

        byte[] bytes()
        {
            try
            {
                out.flush();
            }
            catch (final IOException impossible)
            {
                throw new UncheckedIOException(impossible);
            }
            return buffer.toByteArray();
        }
    }
}
