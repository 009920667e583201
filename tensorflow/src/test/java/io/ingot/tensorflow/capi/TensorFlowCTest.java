package io.ingot.tensorflow.capi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bindings against the real library, extracted from the tensorflow-core-native jar: every bound function is
 * exported (asked of the library itself and, where binutils is installed, of {@code nm -D}), the header constants
 * agree with what the library does with them, and the struct layouts match.
 */
class TensorFlowCTest
{
    @BeforeAll
    static void libraryLoads()
    {
        assertTrue(TensorFlowC.isAvailable(), () -> TensorFlowC.unavailableReason().orElse(""));
    }

    @Test
    @SuppressWarnings("restricted")
    void everyBoundFunctionIsExportedByTheLibrary() throws Exception
    {
        final Path library = TensorFlowC.location().orElseThrow().resolve(LibraryLocation.CC_LIBRARY);
        final SymbolLookup symbols = SymbolLookup.libraryLookup(library, Arena.global());
        assertTrue(TensorFlowC.BOUND_FUNCTIONS.size() >= 25, TensorFlowC.BOUND_FUNCTIONS.toString());
        for (final String function : TensorFlowC.BOUND_FUNCTIONS)
        {
            assertTrue(symbols.find(function).isPresent(), function + " is not exported by " + library);
        }
        final Set<String> exported = dynamicSymbols(library);
        if (exported != null)
        {
            for (final String function : TensorFlowC.BOUND_FUNCTIONS)
            {
                assertTrue(exported.contains(function), "nm -D " + library + " does not list " + function);
            }
        }
    }

    /** @return the defined dynamic symbols {@code nm -D} lists (version suffixes cut), or null without binutils */
    private static Set<String> dynamicSymbols(final Path library) throws InterruptedException
    {
        final Process nm;
        try
        {
            nm = new ProcessBuilder("nm", "-D", "--defined-only", library.toString()).redirectErrorStream(true)
                .start();
        }
        catch (final IOException absent)
        {
            return null;
        }
        final Set<String> names = new HashSet<>();
        try
        {
            for (final String line : new String(nm.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .split("\n"))
            {
                final String[] fields = line.trim().split("\\s+");
                if (fields.length == 3 && fields[1].equals("T"))
                {
                    names.add(fields[2].replaceAll("@.*", ""));
                }
            }
        }
        catch (final IOException e)
        {
            return null;
        }
        assertTrue(nm.waitFor(60, TimeUnit.SECONDS), "nm did not finish");
        return nm.exitValue() == 0 ? names : null;
    }

    @Test
    void theLibraryIsTensorFlow218()
    {
        assertTrue(TensorFlowC.string(TensorFlowC.TF_Version()).startsWith("2.18."),
            TensorFlowC.string(TensorFlowC.TF_Version()));
        // EIGEN_MAX_ALIGN_BYTES of an AVX build: the alignment InputFeed lends memory at.
        assertEquals(64, TensorFlowC.TF_TensorDefaultAlignment());
    }

    @Test
    void dataTypeConstantsAreTheLibrarysOwn()
    {
        final int[][] sizes = {
            {TensorFlowC.TF_FLOAT, 4}, {TensorFlowC.TF_DOUBLE, 8}, {TensorFlowC.TF_INT32, 4},
            {TensorFlowC.TF_UINT8, 1}, {TensorFlowC.TF_INT16, 2}, {TensorFlowC.TF_INT8, 1},
            {TensorFlowC.TF_STRING, 0}, {TensorFlowC.TF_COMPLEX64, 8}, {TensorFlowC.TF_INT64, 8},
            {TensorFlowC.TF_BOOL, 1}, {TensorFlowC.TF_BFLOAT16, 2}, {TensorFlowC.TF_UINT16, 2},
            {TensorFlowC.TF_COMPLEX128, 16}, {TensorFlowC.TF_HALF, 2}, {TensorFlowC.TF_UINT32, 4},
            {TensorFlowC.TF_UINT64, 8},
        };
        for (final int[] size : sizes)
        {
            assertEquals(size[1], TensorFlowC.TF_DataTypeSize(size[0]), "TF_DataTypeSize(" + size[0] + ")");
        }
    }

    @Test
    void statusCodesAndMessagesComeBack()
    {
        try (TfStatus status = new TfStatus())
        {
            assertTrue(status.ok());
            final Path missing = Path.of("/nonexistent/ingot/savedmodel");
            final TensorFlowException failure = org.junit.jupiter.api.Assertions.assertThrows(
                TensorFlowException.class, () -> TfSession.load(missing, List.of("serve"), new byte[0]));
            assertTrue(failure.getMessage().contains("TF_LoadSessionFromSavedModel failed with TF_"),
                failure.getMessage());
            assertTrue(failure.getMessage().contains(missing.toString()), failure.getMessage());
        }
    }

    @Test
    void bufferAndOutputLayoutsMatchTheHeaders()
    {
        assertEquals(16, TensorFlowC.TF_OUTPUT.byteSize());
        assertEquals(24, TensorFlowC.TF_BUFFER.byteSize());
        try (Arena arena = Arena.ofConfined())
        {
            final byte[] bytes = "ingot".getBytes(StandardCharsets.US_ASCII);
            final MemorySegment buffer = TensorFlowC.TF_NewBufferFromString(arena.allocateFrom(
                ValueLayout.JAVA_BYTE, bytes), bytes.length);
            try
            {
                final MemorySegment struct = buffer.reinterpret(TensorFlowC.TF_BUFFER.byteSize());
                assertEquals(bytes.length, struct.get(ValueLayout.JAVA_LONG, 8));
                final MemorySegment data = struct.get(ValueLayout.ADDRESS, 0).reinterpret(bytes.length);
                assertArrayEquals(bytes, data.toArray(ValueLayout.JAVA_BYTE));
                assertTrue(struct.get(ValueLayout.ADDRESS, 16).address() != 0, "TF_NewBufferFromString sets a"
                    + " deallocator");
            }
            finally
            {
                TensorFlowC.TF_DeleteBuffer(buffer);
            }
        }
    }

    @Test
    void newTensorLendsAlignedMemoryAndCopiesUnalignedMemory()
    {
        try (Arena arena = Arena.ofShared())
        {
            final TensorReleases releases = new TensorReleases(arena);
            final MemorySegment dims = arena.allocateFrom(ValueLayout.JAVA_LONG, 4);
            final MemorySegment block = arena.allocate(64 * 2, 64);
            final List<MemorySegment> tensors = new ArrayList<>();
            for (final long offset : new long[] {0, 4})
            {
                final MemorySegment data = block.asSlice(offset, 16);
                releases.lent();
                final MemorySegment tensor = TensorFlowC.TF_NewTensor(TensorFlowC.TF_FLOAT, dims, 1, data, 16,
                    releases.function(), MemorySegment.NULL);
                tensors.add(tensor);
                final boolean aligned = offset == 0;
                assertEquals(aligned, TensorFlowC.TF_TensorData(tensor).address() == data.address(),
                    "offset " + offset);
                // A copy releases the caller's memory at once; a loan only when the tensor goes.
                assertEquals(aligned ? 1 : 0, releases.outstanding(), "offset " + offset);
                TensorFlowC.TF_DeleteTensor(tensor);
                assertEquals(0, releases.outstanding());
            }
            assertEquals(2, releases.released());
            assertEquals(2, tensors.size());
        }
    }
}
