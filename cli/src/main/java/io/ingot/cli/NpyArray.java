package io.ingot.cli;

import io.ingot.tensor.DataType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A NumPy {@code .npy} file (format versions 1 to 3): element type, shape and the little-endian, C-ordered
 * elements. Only the fixed-size numeric and boolean types Triton knows are accepted.
 *
 * @param dataType element type
 * @param shape    shape ({@code []} for a scalar)
 * @param data     the elements' bytes
 */
record NpyArray(DataType dataType, long[] shape, byte[] data)
{
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    /**
     * @param file a {@code .npy} file
     * @return its contents
     * @throws CliException naming the file and the problem when it is not a usable {@code .npy} file
     */
    static NpyArray read(final Path file)
    {
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(file);
        }
        catch (final IOException e)
        {
            throw CliException.usage("cannot read '" + file + "': " + e.getMessage());
        }
        if (bytes.length < 10 || !java.util.Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length))
        {
            throw CliException.usage("'" + file + "' is not a .npy file (it does not start with \\x93NUMPY)");
        }
        final int major = bytes[6];
        final int headerLength;
        final int headerStart;
        if (major == 1)
        {
            headerLength = (bytes[8] & 0xff) | (bytes[9] & 0xff) << 8;
            headerStart = 10;
        }
        else if (major == 2 || major == 3)
        {
            if (bytes.length < 12)
            {
                throw CliException.usage("'" + file + "' is truncated inside its .npy header");
            }
            headerLength = (bytes[8] & 0xff) | (bytes[9] & 0xff) << 8 | (bytes[10] & 0xff) << 16
                | (bytes[11] & 0xff) << 24;
            headerStart = 12;
        }
        else
        {
            throw CliException.usage("'" + file + "' is .npy format version " + major + "; versions 1 to 3 are read");
        }
        if (headerLength < 0 || headerStart + headerLength > bytes.length)
        {
            throw CliException.usage("'" + file + "' is truncated inside its .npy header");
        }
        final String header = new String(bytes, headerStart, headerLength, StandardCharsets.UTF_8);
        final String descr = group(DESCR, header, file, "descr");
        if ("True".equals(group(FORTRAN, header, file, "fortran_order")))
        {
            throw CliException.usage("'" + file + "' is in Fortran order; save it C-ordered (np.ascontiguousarray)");
        }
        final long[] shape = parseShape(group(SHAPE, header, file, "shape"), file);
        final DataType type = dataType(descr, file);
        long elements = 1;
        for (final long dim : shape)
        {
            elements *= dim;
        }
        final long expected = elements * type.byteSize();
        final int dataStart = headerStart + headerLength;
        if (bytes.length - dataStart != expected)
        {
            throw CliException.usage("'" + file + "' holds " + (bytes.length - dataStart) + " bytes of data but its"
                + " header (" + descr + ", shape " + java.util.Arrays.toString(shape) + ") needs " + expected);
        }
        return new NpyArray(type, shape, java.util.Arrays.copyOfRange(bytes, dataStart, bytes.length));
    }

    private static String group(final Pattern pattern, final String header, final Path file, final String key)
    {
        final Matcher matcher = pattern.matcher(header);
        if (!matcher.find())
        {
            throw CliException.usage("'" + file + "' has no '" + key + "' in its .npy header: " + header.trim());
        }
        return matcher.group(1);
    }

    private static long[] parseShape(final String text, final Path file)
    {
        final String trimmed = text.trim();
        if (trimmed.isEmpty())
        {
            return new long[0];
        }
        final String[] parts = trimmed.split(",");
        int count = 0;
        final long[] shape = new long[parts.length];
        for (final String part : parts)
        {
            final String dim = part.trim().replace("L", "");
            if (dim.isEmpty())
            {
                continue;
            }
            try
            {
                shape[count++] = Long.parseLong(dim);
            }
            catch (final NumberFormatException e)
            {
                throw CliException.usage("'" + file + "' has an unreadable shape (" + text + ") in its .npy header");
            }
        }
        return java.util.Arrays.copyOf(shape, count);
    }

    private static DataType dataType(final String descr, final Path file)
    {
        if (descr.length() < 2)
        {
            throw CliException.usage("'" + file + "' has an unreadable element type '" + descr + "'");
        }
        if (descr.charAt(0) == '>' && !descr.endsWith("1"))
        {
            throw CliException.usage("'" + file + "' is big-endian (" + descr + "); save it little-endian"
                + " (array.astype(array.dtype.newbyteorder('<')))");
        }
        final String kind = descr.substring(1);
        return switch (kind)
        {
            case "f4" -> DataType.FP32;
            case "f8" -> DataType.FP64;
            case "f2" -> DataType.FP16;
            case "i1" -> DataType.INT8;
            case "i2" -> DataType.INT16;
            case "i4" -> DataType.INT32;
            case "i8" -> DataType.INT64;
            case "u1" -> DataType.UINT8;
            case "u2" -> DataType.UINT16;
            case "u4" -> DataType.UINT32;
            case "u8" -> DataType.UINT64;
            case "b1" -> DataType.BOOL;
            default -> throw CliException.usage("'" + file + "' has element type " + descr
                + ", which has no Triton datatype (numeric and bool arrays are accepted)");
        };
    }
}
