package io.ingot.cli;

import io.ingot.tensor.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NpyArrayTest
{
    @TempDir
    Path directory;

    /** Writes a version 1.0 .npy file the way numpy.save does (header padded to a multiple of 64 bytes). */
    static byte[] npy(final String descr, final String shape, final byte[] data)
    {
        return npy(descr, "False", shape, data);
    }

    static byte[] npy(final String descr, final String fortran, final String shape, final byte[] data)
    {
        String header = "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
        final int unpadded = 10 + header.length() + 1;
        header = header + " ".repeat((64 - unpadded % 64) % 64) + "\n";
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
        out.write(header.length() & 0xff);
        out.write(header.length() >> 8);
        out.writeBytes(header.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(data);
        return out.toByteArray();
    }

    private Path file(final byte[] bytes) throws Exception
    {
        final Path file = directory.resolve("array.npy");
        Files.write(file, bytes);
        return file;
    }

    @Test
    void readsTypeShapeAndData() throws Exception
    {
        final NpyArray array = NpyArray.read(file(npy("<i8", "(2, 1)", new byte[16])));
        assertEquals(DataType.INT64, array.dataType());
        assertArrayEquals(new long[] {2, 1}, array.shape());
        assertEquals(16, array.data().length);
        assertArrayEquals(new long[0], NpyArray.read(file(npy("|b1", "()", new byte[1]))).shape());
    }

    @Test
    void rejectsWhatItCannotPassOn() throws Exception
    {
        assertTrue(assertThrows(CliException.class, () -> NpyArray.read(file(npy(">f4", "(1,)", new byte[4]))))
            .getMessage().contains("is big-endian (>f4)"));
        assertTrue(assertThrows(CliException.class, () -> NpyArray.read(file(npy("<f4", "True", "(2, 2)",
            new byte[16])))).getMessage().contains("Fortran order"));
        assertTrue(assertThrows(CliException.class, () -> NpyArray.read(file(npy("<c8", "(1,)", new byte[8]))))
            .getMessage().contains("element type <c8, which has no Triton datatype"));
        assertTrue(assertThrows(CliException.class, () -> NpyArray.read(file(npy("<f4", "(3,)", new byte[8]))))
            .getMessage().contains("holds 8 bytes of data but its header (<f4, shape [3]) needs 12"));
        assertTrue(assertThrows(CliException.class, () -> NpyArray.read(file("not numpy".getBytes(
            StandardCharsets.US_ASCII)))).getMessage().contains("is not a .npy file"));
    }
}
