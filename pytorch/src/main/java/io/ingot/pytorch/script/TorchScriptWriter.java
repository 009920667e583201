package io.ingot.pytorch.script;

import io.ingot.tensor.DataType;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes a {@link ScriptModule} as a TorchScript archive, the file {@code torch.jit.save} produces and
 * {@code torch::jit::load} reads. The layout follows PyTorch's serializer ({@code export_module.cpp},
 * {@code caffe2/serialize/inline_container.cc}): a zip whose entries all sit in one folder named after the archive,
 * stored uncompressed, holding
 * <ul>
 *   <li>{@code version}: the file format version, {@value #FILE_FORMAT_VERSION} (the lowest PyTorch 2 writes; the
 *       operators these modules use have no upgraders);</li>
 *   <li>{@code byteorder}: {@code little};</li>
 *   <li>{@code data.pkl}: the module object, pickled: {@code __torch__.<Class>} built from a dict of its attributes
 *       ({@code training} and each parameter); a tensor is {@code torch._utils._rebuild_tensor_v2} over a persistent
 *       {@code ('storage', torch.<T>Storage, key, 'cpu', numel)};</li>
 *   <li>{@code data/<key>}: each tensor's bytes, aligned to 64 bytes in the file as PyTorch aligns them;</li>
 *   <li>{@code constants.pkl}: the constant table, an empty tuple;</li>
 *   <li>{@code code/__torch__.py}: the class in TorchScript source, as {@code torch.jit.save} prints it.</li>
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
public final class TorchScriptWriter
{
    /** The {@code version} record: PyTorch's {@code kMinProducedFileFormatVersion}. */
    public static final int FILE_FORMAT_VERSION = 3;

    /** Alignment of record data in the archive ({@code kFieldAlignment} in PyTorch's stream writer). */
    private static final int FIELD_ALIGNMENT = 64;
    private static final int LOCAL_HEADER_SIZE = 30;
    /** A zip "extra" block id PyTorch uses for its padding ({@code 'F','B'}). */
    private static final int PADDING_HEADER_ID = 0x4246;
    /** Entry time: fixed (reproducible archives) and within DOS time, so that zip adds no timestamp extra. */
    private static final LocalDateTime ENTRY_TIME = LocalDateTime.of(1980, 2, 1, 0, 0);

    private TorchScriptWriter()
    {
    }

    /**
     * Writes the archive atomically (into a temporary file beside {@code file}, then moved over it).
     *
     * @param module the module
     * @param file   the archive to write, typically {@code <version>/model.pt}
     * @throws IOException when the file cannot be written
     */
    public static void write(final ScriptModule module, final Path file) throws IOException
    {
        final Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        final Path partial = Files.createTempFile(directory, file.getFileName().toString(), ".partial");
        try
        {
            try (OutputStream out = Files.newOutputStream(partial))
            {
                write(module, archiveName(file), out);
            }
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        finally
        {
            Files.deleteIfExists(partial);
        }
    }

    /**
     * Writes the archive to a stream.
     *
     * @param module      the module
     * @param archiveName the folder all entries sit in (PyTorch uses the file name without its extension)
     * @param out         where to write; not closed
     * @throws IOException when writing fails
     */
    public static void write(final ScriptModule module, final String archiveName, final OutputStream out)
        throws IOException
    {
        final CountingStream counted = new CountingStream(out);
        final ZipOutputStream zip = new ZipOutputStream(counted);
        final String prefix = archiveName + "/";
        final List<ScriptTensor> tensors = new ArrayList<>(module.parameters().values());
        record(zip, counted, prefix + "data.pkl", modulePickle(module));
        record(zip, counted, prefix + "code/__torch__.py", source(module).getBytes(StandardCharsets.UTF_8));
        for (int key = 0; key < tensors.size(); key++)
        {
            record(zip, counted, prefix + "data/" + key, tensors.get(key).data());
        }
        record(zip, counted, prefix + "constants.pkl", new PickleWriter().emptyTuple().finish());
        record(zip, counted, prefix + "version", (FILE_FORMAT_VERSION + "\n").getBytes(StandardCharsets.US_ASCII));
        record(zip, counted, prefix + "byteorder", "little".getBytes(StandardCharsets.US_ASCII));
        zip.finish();
        zip.flush();
    }

    /**
     * The TorchScript source of the module's class, as {@code torch.jit.save} prints a scripted module.
     *
     * @param module the module
     * @return the contents of {@code code/__torch__.py}
     */
    public static String source(final ScriptModule module)
    {
        final StringBuilder code = new StringBuilder();
        code.append("class ").append(module.className()).append("(Module):\n");
        code.append("  __parameters__ = [");
        for (final String name : module.parameters().keySet())
        {
            code.append('"').append(name).append("\", ");
        }
        code.append("]\n");
        code.append("  __buffers__ = []\n");
        for (final String name : module.parameters().keySet())
        {
            code.append("  ").append(name).append(" : Tensor\n");
        }
        code.append("  training : bool\n");
        code.append("  def forward(self: ").append(module.qualifiedName());
        for (final Map.Entry<String, String> argument : module.arguments().entrySet())
        {
            code.append(",\n    ").append(argument.getKey()).append(": ").append(argument.getValue());
        }
        code.append(") -> ").append(module.returnType()).append(":\n");
        for (final String statement : module.body())
        {
            code.append("    ").append(statement).append('\n');
        }
        return code.toString();
    }

    /** The module object: {@code __torch__.<Class>} built from {training: False, <parameter>: tensor, ...}. */
    private static byte[] modulePickle(final ScriptModule module)
    {
        final PickleWriter pickle = new PickleWriter();
        pickle.global("__torch__", module.className()).emptyTuple().newObject();
        pickle.emptyDict().mark();
        pickle.string("training").bool(false);
        int key = 0;
        for (final Map.Entry<String, ScriptTensor> parameter : module.parameters().entrySet())
        {
            pickle.string(parameter.getKey());
            tensor(pickle, parameter.getValue(), Integer.toString(key++));
        }
        pickle.setItems().build();
        return pickle.finish();
    }

    /** {@code torch._utils._rebuild_tensor_v2(storage, 0, size, stride, False, OrderedDict())}. */
    private static void tensor(final PickleWriter pickle, final ScriptTensor tensor, final String key)
    {
        pickle.global("torch._utils", "_rebuild_tensor_v2").mark();
        pickle.mark().string("storage").global("torch", storageName(tensor.dataType())).string(key).string("cpu")
            .integer(tensor.elementCount()).tuple().persistentId();
        pickle.integer(0);
        pickle.mark();
        for (final long dim : tensor.shape())
        {
            pickle.integer(dim);
        }
        pickle.tuple().mark();
        for (final long stride : tensor.strides())
        {
            pickle.integer(stride);
        }
        pickle.tuple().bool(false);
        pickle.global("collections", "OrderedDict").emptyTuple().reduce();
        pickle.tuple().reduce();
    }

    /**
     * @param type an element type
     * @return the storage class PyTorch pickles for it ({@code ScalarType} name + {@code Storage})
     * @throws IllegalArgumentException for a type TorchScript has no storage for
     */
    static String storageName(final DataType type)
    {
        return switch (type)
        {
            case BOOL -> "BoolStorage";
            case UINT8 -> "ByteStorage";
            case INT8 -> "CharStorage";
            case INT16 -> "ShortStorage";
            case INT32 -> "IntStorage";
            case INT64 -> "LongStorage";
            case FP16 -> "HalfStorage";
            case BF16 -> "BFloat16Storage";
            case FP32 -> "FloatStorage";
            case FP64 -> "DoubleStorage";
            default -> throw new IllegalArgumentException("TorchScript has no storage of " + type);
        };
    }

    private static String archiveName(final Path file)
    {
        final String name = file.getFileName().toString();
        final int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    /** Adds one stored (uncompressed) entry whose data starts at a multiple of {@link #FIELD_ALIGNMENT}. */
    private static void record(final ZipOutputStream zip, final CountingStream counted, final String name,
        final byte[] data) throws IOException
    {
        final ZipEntry entry = new ZipEntry(name);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(data.length);
        entry.setCompressedSize(data.length);
        final CRC32 crc = new CRC32();
        crc.update(data);
        entry.setCrc(crc.getValue());
        entry.setTimeLocal(ENTRY_TIME);
        final long dataStart = counted.count() + LOCAL_HEADER_SIZE + name.getBytes(StandardCharsets.UTF_8).length + 4;
        final int padding = (int)((FIELD_ALIGNMENT - dataStart % FIELD_ALIGNMENT) % FIELD_ALIGNMENT);
        final byte[] extra = new byte[4 + padding];
        extra[0] = (byte)(PADDING_HEADER_ID & 0xff);
        extra[1] = (byte)(PADDING_HEADER_ID >>> 8);
        extra[2] = (byte)padding;
        extra[3] = (byte)(padding >>> 8);
        for (int i = 4; i < extra.length; i++)
        {
            extra[i] = 'Z';
        }
        entry.setExtra(extra);
        zip.putNextEntry(entry);
        zip.write(data);
        zip.closeEntry();
    }

    /** Counts the bytes written through it, so that entries can be aligned. */
    private static final class CountingStream extends FilterOutputStream
    {
        private long count;

        CountingStream(final OutputStream out)
        {
            super(out);
        }

        @Override
        public void write(final int b) throws IOException
        {
            out.write(b);
            count++;
        }

        @Override
        public void write(final byte[] b, final int off, final int len) throws IOException
        {
            out.write(b, off, len);
            count += len;
        }

        long count()
        {
            return count;
        }
    }
}
