package io.ingot.trt.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the TensorRT shim's sources for the GPU tests that build it. */
public final class ShimSources
{
    private ShimSources()
    {
    }


    /**
     * Finds {@code trt/src/main/native} (the shim's sources and build script): system property
     * {@code ingot.trt.native.dir}, else upwards from the working directory (the module, the repository root, or the
     * GPU-check bundle inside the working tree).
     *
     * @return the folder, or {@code null} when it is not found
     */
    public static Path find()
    {
        final String configured = System.getProperty("ingot.trt.native.dir");
        if (configured != null)
        {
            return Path.of(configured);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent())
        {
            for (final Path candidate : new Path[] {dir.resolve("src/main/native"), dir.resolve("trt/src/main/native")})
            {
                if (Files.isRegularFile(candidate.resolve("build.sh"))
                    && Files.isRegularFile(candidate.resolve("ingot_trt_shim.cpp")))
                {
                    return candidate;
                }
            }
        }
        return null;
    }
}
