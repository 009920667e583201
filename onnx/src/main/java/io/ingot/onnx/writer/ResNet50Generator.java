package io.ingot.onnx.writer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@code examples/models/resnet50/1/model.onnx} during the build (see the module's pom). The file is not
 * committed: it is regenerated only when missing or written by another generator version or seed, which the first
 * bytes of the file tell (protobuf writes {@code producer_version}, field 3, before the graph).
 *
 * <p>Usage: {@code ResNet50Generator <output.onnx> [seed]}.
 */
public final class ResNet50Generator
{
    /** The seed of the example model's weights. */
    public static final long DEFAULT_SEED = 20_250_101L;
    /** Bump when the topology or the weight scheme changes, so existing files are rewritten. */
    private static final String GENERATOR_VERSION = "resnet50-writer/1";
    private static final int HEADER_BYTES = 256;

    private ResNet50Generator()
    {
    }

    /**
     * @param args output path, then an optional seed
     * @throws IOException when the file cannot be written
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length < 1 || args.length > 2)
        {
            throw new IllegalArgumentException("usage: ResNet50Generator <output.onnx> [seed]");
        }
        final Path output = Path.of(args[0]).toAbsolutePath().normalize();
        final long seed = args.length == 2 ? Long.parseLong(args[1]) : DEFAULT_SEED;
        final String stamp = GENERATOR_VERSION + " seed=" + seed;
        if (isUpToDate(output, stamp))
        {
            System.out.println("ResNet-50 example model is up to date: " + output);
            return;
        }
        final long start = System.nanoTime();
        OnnxModelBuilder.write(ResNet50.build(seed, stamp), output);
        System.out.printf("Wrote ResNet-50 example model (%s, %.1f MB) in %.1f s: %s%n", stamp,
            Files.size(output) / 1e6, (System.nanoTime() - start) / 1e9, output);
    }

    private static boolean isUpToDate(final Path file, final String stamp) throws IOException
    {
        if (!Files.isRegularFile(file))
        {
            return false;
        }
        try (InputStream in = Files.newInputStream(file))
        {
            final String header = new String(in.readNBytes(HEADER_BYTES), StandardCharsets.ISO_8859_1);
            return header.contains(stamp);
        }
    }
}
