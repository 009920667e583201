package io.ingot.cuda;

import io.ingot.headers.HeaderConformance;
import io.ingot.headers.HeaderConformance.Check;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Checks every value the bindings hard-code against the real CUDA headers: it reads the binding classes by
 * reflection ({@link HeaderConformance#checksOf}), writes a C program that prints the headers' values, compiles it
 * with gcc and compares. Nothing is listed twice, so a constant added to the bindings is checked without touching
 * this test.
 */
class CudaHeaderConformanceTest
{
    /** A binding class and the header that defines what it hard-codes. */
    private record Binding(Class<?> type, String header, String includes)
    {
    }

    private static final List<Binding> BINDINGS = List.of(
        new Binding(CudaRuntime.class, "cuda_runtime_api.h",
            "#include <cuda_runtime_api.h>\n#include <library_types.h>\n"),
        // cublas_v2.h defines CUBLASAPI, without which cublas_api.h refuses to compile.
        new Binding(Cublas.class, "cublas_v2.h", "#include <cublas_v2.h>\n"));

    @Test
    void everyHardCodedConstantAndLayoutMatchesTheHeaders(@TempDir final Path work)
        throws IOException, InterruptedException
    {
        final Optional<Path> include = findIncludeDir();
        skipUnless(include.isPresent(), "no CUDA headers: neither $CUDA_HOME/include nor /usr/local/cuda/include "
            + "has cuda_runtime_api.h");
        final Optional<Path> compiler = HeaderConformance.findCompiler();
        skipUnless(compiler.isPresent(), "no C compiler: gcc (or $CC) is not on PATH");

        final StringBuilder includes = new StringBuilder();
        final Map<String, Check> checks = new LinkedHashMap<>();
        final List<String> skipped = new ArrayList<>();
        for (final Binding binding : BINDINGS)
        {
            final List<Check> own = HeaderConformance.checksOf(binding.type());
            if (!Files.exists(include.get().resolve(binding.header())))
            {
                skipped.add(own.size() + " values of " + binding.type().getSimpleName() + " (" + binding.header()
                    + " is not installed in " + include.get() + ")");
                continue;
            }
            includes.append(binding.includes());
            for (final Check check : own)
            {
                final Check previous = checks.put(check.key(), check);
                assertTrue(previous == null, "two binding values map to the same C expression " + check.key());
            }
        }
        final List<String> mismatches = HeaderConformance.mismatches(checks.values(), includes.toString(),
            List.of("-I", include.get().toString()), compiler.get(), work);
        System.out.println("CudaHeaderConformanceTest: checked " + checks.size() + " values against "
            + include.get() + (skipped.isEmpty() ? "" : "; not checked: " + String.join("; ", skipped)));
        assertTrue(mismatches.isEmpty(), mismatches.size() + " hard-coded values differ from the CUDA headers:\n  "
            + String.join("\n  ", mismatches));
        assertTrue(checks.size() > 100, "expected well over 100 values, checked only " + checks.size());
    }

    private static Optional<Path> findIncludeDir()
    {
        final List<Path> candidates = new ArrayList<>();
        final String cudaHome = System.getenv("CUDA_HOME");
        if (cudaHome != null && !cudaHome.isBlank())
        {
            candidates.add(Path.of(cudaHome, "include"));
        }
        candidates.add(Path.of("/usr/local/cuda/include"));
        return candidates.stream().filter(dir -> Files.isRegularFile(dir.resolve("cuda_runtime_api.h"))).findFirst();
    }

    private static void skipUnless(final boolean condition, final String reason)
    {
        if (!condition)
        {
            System.out.println("CudaHeaderConformanceTest: skipped: " + reason);
        }
        assumeTrue(condition, reason);
    }
}
