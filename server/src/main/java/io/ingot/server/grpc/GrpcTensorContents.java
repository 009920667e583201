package io.ingot.server.grpc;

import com.google.protobuf.ByteString;
import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.protocol.grpc.InferTensorContents;
import io.netty.buffer.ByteBuf;

/**
 * Converts typed gRPC {@code contents} into the binary tensor layout. Each datatype reads its one field
 * ({@code int_contents} for INT8/16/32, truncated to the element size; {@code uint_contents} for UINT8/16/32; ...);
 * the element count must match the shape and no other field may be set. FP16 and BF16 have no typed field.
 */
public final class GrpcTensorContents
{
    private GrpcTensorContents()
    {
    }

    /**
     * <p>The element count is not checked here: the converted bytes then fail the core's byte-size check against
     * the shape, with Triton's message ("input byte size mismatch ...").
     *
     * @param tensor   input name, for messages
     * @param model    the model's name, for messages
     * @param dataType its datatype
     * @param contents the typed contents
     * @param out      where the bytes go
     * @throws InferenceException INVALID_ARG for a field that does not match the datatype, with Triton's message
     */
    public static void read(final String tensor, final String model, final DataType dataType,
        final InferTensorContents contents, final ByteBuf out)
    {
        final String field = fieldOf(tensor, dataType);
        final int count = countOf(contents, field);
        checkOnlyField(tensor, model, dataType, contents, field);
        for (int i = 0; i < count; i++)
        {
            switch (dataType)
            {
                case BOOL -> out.writeByte(contents.getBoolContents(i) ? 1 : 0);
                case INT8, UINT8 -> out.writeByte(dataType == DataType.INT8 ? contents.getIntContents(i)
                    : contents.getUintContents(i));
                case INT16 -> out.writeShortLE(contents.getIntContents(i));
                case UINT16 -> out.writeShortLE(contents.getUintContents(i));
                case INT32 -> out.writeIntLE(contents.getIntContents(i));
                case UINT32 -> out.writeIntLE(contents.getUintContents(i));
                case INT64 -> out.writeLongLE(contents.getInt64Contents(i));
                case UINT64 -> out.writeLongLE(contents.getUint64Contents(i));
                case FP32 -> out.writeFloatLE(contents.getFp32Contents(i));
                case FP64 -> out.writeDoubleLE(contents.getFp64Contents(i));
                case BYTES ->
                {
                    final ByteString element = contents.getBytesContents(i);
                    out.writeIntLE(element.size());
                    out.writeBytes(element.asReadOnlyByteBuffer());
                }
                case FP16, BF16 -> throw new IllegalStateException("refused by fieldOf");
            }
        }
    }

    private static String fieldOf(final String tensor, final DataType dataType)
    {
        return switch (dataType)
        {
            case BOOL -> "bool_contents";
            case INT8, INT16, INT32 -> "int_contents";
            case INT64 -> "int64_contents";
            case UINT8, UINT16, UINT32 -> "uint_contents";
            case UINT64 -> "uint64_contents";
            case FP32 -> "fp32_contents";
            case FP64 -> "fp64_contents";
            case BYTES -> "bytes_contents";
            case FP16, BF16 -> throw new InferenceException(ErrorCode.INVALID_ARG, dataType.wireName()
                + " input '" + tensor + "' cannot use typed contents: send it in raw_input_contents");
        };
    }

    private static int countOf(final InferTensorContents contents, final String field)
    {
        return switch (field)
        {
            case "bool_contents" -> contents.getBoolContentsCount();
            case "int_contents" -> contents.getIntContentsCount();
            case "int64_contents" -> contents.getInt64ContentsCount();
            case "uint_contents" -> contents.getUintContentsCount();
            case "uint64_contents" -> contents.getUint64ContentsCount();
            case "fp32_contents" -> contents.getFp32ContentsCount();
            case "fp64_contents" -> contents.getFp64ContentsCount();
            case "bytes_contents" -> contents.getBytesContentsCount();
            default -> throw new IllegalArgumentException(field);
        };
    }

    private static void checkOnlyField(final String tensor, final String model, final DataType dataType,
        final InferTensorContents contents, final String field)
    {
        for (final String other : new String[] {"bool_contents", "int_contents", "int64_contents", "uint_contents",
            "uint64_contents", "fp32_contents", "fp64_contents", "bytes_contents"})
        {
            if (!other.equals(field) && countOf(contents, other) > 0)
            {
                // server src/grpc/infer_handler.cc InferGRPCToInputHelper
                throw new InferenceException(ErrorCode.INVALID_ARG, "unexpected explicit tensor data for input tensor '"
                    + tensor + "' for model '" + model + "' of type '" + fieldType(other) + "', expected datatype '"
                    + dataType.wireName() + "' (" + other + " is set; a " + dataType.wireName() + " input uses "
                    + field + ")");
            }
        }
    }

    /** The datatype Triton names for a contents field (the widest type it carries). */
    private static String fieldType(final String field)
    {
        return switch (field)
        {
            case "bool_contents" -> "BOOL";
            case "int_contents" -> "INT32";
            case "int64_contents" -> "INT64";
            case "uint_contents" -> "UINT32";
            case "uint64_contents" -> "UINT64";
            case "fp32_contents" -> "FP32";
            case "fp64_contents" -> "FP64";
            default -> "BYTES";
        };
    }
}
