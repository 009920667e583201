package io.ingot.pytorch;

import io.ingot.pytorch.script.PickleWriter;
import io.ingot.pytorch.script.TorchScriptWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Reading forward's signature from TorchScript source, and the archive layout the writer produces. */
class TorchScriptArchiveTest
{
    @TempDir
    Path directory;

    @Test
    void readsTheSignatureBackFromAWrittenArchive() throws Exception
    {
        final Path file = TorchModels.write(TorchModels.addSub("left", "right"), directory);
        final ForwardSignature signature = TorchScriptArchive.readSignature(file);
        assertEquals(List.of("left", "right"), signature.names());
        assertEquals("Tuple[Tensor, Tensor]", signature.returnType());
        assertEquals(List.of(ForwardSignature.Produced.TENSOR, ForwardSignature.Produced.TENSOR), signature.produced());
    }

    @Test
    void parsesTheShapesTorchJitSavePrints() throws Exception
    {
        // As torch.jit.save prints a traced torchvision block: a mangled qualifier, one argument per line.
        final String source = """
            class Conv2d(Module):
              __parameters__ = ["weight", "bias", ]
              __buffers__ = []
              weight : Tensor
              bias : Optional[Tensor]
              training : bool
              padding : Final[Tuple[int, int]] = (1, 1)
              def forward(self: __torch__.torch.nn.modules.conv.___torch_mangle_6.Conv2d,
                input: Tensor,
                lengths: Dict[str, Tensor],
                names: List[str],
                scale: float=1.5) -> Tuple[Tensor, List[str]]:
                _0 = (self)._conv_forward(input, self.weight, )
                return (_0, names)
              def _conv_forward(self: __torch__.torch.nn.modules.conv.___torch_mangle_6.Conv2d,
                input: Tensor,
                weight: Tensor) -> Tensor:
                return torch.conv2d(input, weight, self.bias, [1, 1], [1, 1], [1, 1], 1)
            class Other(Module):
              def forward(self: __torch__.Other) -> int:
                return 1
            """;
        final ForwardSignature signature = TorchScriptArchive.parseForward(source, "Conv2d");
        assertEquals(List.of("input", "lengths", "names", "scale"), signature.names());
        assertEquals(List.of(ForwardSignature.Kind.TENSOR, ForwardSignature.Kind.DICT, ForwardSignature.Kind.LIST,
            ForwardSignature.Kind.OTHER), signature.arguments().stream().map(ForwardSignature.Argument::kind).toList());
        assertEquals(List.of(ForwardSignature.Produced.TENSOR, ForwardSignature.Produced.STRINGS),
            signature.produced());
        assertEquals(List.of(ForwardSignature.Produced.UNSUPPORTED),
            TorchScriptArchive.parseForward(source, "Other").produced());
        assertThrows(TorchScriptArchive.UnreadableCodeException.class,
            () -> TorchScriptArchive.parseForward(source, "Missing"));
    }

    @Test
    void aNamedTupleResultIsLeftToTheRun() throws Exception
    {
        final ForwardSignature signature = TorchScriptArchive.parseForward("""
            class M(Module):
              def forward(self: __torch__.M,
                x: Tensor) -> __torch__.Result:
                return x
            """, "M");
        assertNull(signature.produced());
    }

    @Test
    void theRootClassIsDataPklsFirstGlobal() throws Exception
    {
        final byte[] pickle = new PickleWriter().global("__torch__.models", "Net").emptyTuple().newObject().finish();
        assertArrayEquals(new String[] {"__torch__.models", "Net"}, TorchScriptArchive.rootClass(pickle));
    }

    @Test
    void tensorRecordsStartOn64ByteBoundariesAndTheArchiveIsReproducible() throws Exception
    {
        final Path file = TorchModels.write(TorchModels.linear(), directory);
        try (ZipFile zip = new ZipFile(file.toFile());
            RandomAccessFile raw = new RandomAccessFile(file.toFile(), "r"))
        {
            for (final String name : List.of("model/data/0", "model/data/1"))
            {
                final ZipEntry entry = zip.getEntry(name);
                assertEquals(ZipEntry.STORED, entry.getMethod(), name);
                final long start = dataOffset(raw, entry.getName(), zip, entry);
                assertEquals(0, start % 64, name + " starts at " + start);
            }
        }
        final ByteArrayOutputStream again = new ByteArrayOutputStream();
        TorchScriptWriter.write(TorchModels.linear(), "model", again);
        assertArrayEquals(Files.readAllBytes(file), again.toByteArray());
    }

    /** Finds a stored entry's data in the file by its bytes (its local header precedes it). */
    private static long dataOffset(final RandomAccessFile raw, final String name, final ZipFile zip,
        final ZipEntry entry) throws Exception
    {
        final byte[] data = zip.getInputStream(entry).readAllBytes();
        final byte[] whole = new byte[(int)raw.length()];
        raw.seek(0);
        raw.readFully(whole);
        final byte[] header = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + header.length < whole.length; i++)
        {
            for (int j = 0; j < header.length; j++)
            {
                if (whole[i + j] != header[j])
                {
                    continue outer;
                }
            }
            // local header: 30 bytes, then the name, then the extra field, then the data
            final int nameStart = i;
            final int extraLength = (whole[nameStart - 2] & 0xff) | (whole[nameStart - 1] & 0xff) << 8;
            final int start = nameStart + header.length + extraLength;
            final byte[] found = java.util.Arrays.copyOfRange(whole, start, start + data.length);
            if (java.util.Arrays.equals(found, data))
            {
                return start;
            }
        }
        throw new AssertionError(name + " not found");
    }
}
