package io.ingot.cuda;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Checks every value the bindings hard-code against the real CUDA headers: it reads the binding classes by
 * reflection (every public static final int/long field is a header constant of the same name, every public
 * ValueLayout names a C type, every public StructLayout names a struct whose named members must sit at the same
 * offsets with the same sizes), writes a C program that prints the headers' values, compiles it with gcc and
 * compares. Nothing is listed twice, so a constant added to the bindings is checked without touching this test.
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

    /** One value to compare: printed by the C program under {@code key}. */
    private record Check(String key, long javaValue, String cExpression)
    {
    }

    @Test
    void everyHardCodedConstantAndLayoutMatchesTheHeaders(@TempDir final Path work)
        throws IOException, InterruptedException
    {
        final Optional<Path> include = findIncludeDir();
        skipUnless(include.isPresent(), "no CUDA headers: neither $CUDA_HOME/include nor /usr/local/cuda/include "
            + "has cuda_runtime_api.h");
        final Optional<Path> compiler = findCompiler();
        skipUnless(compiler.isPresent(), "no C compiler: gcc (or $CC) is not on PATH");

        final StringBuilder program = new StringBuilder("#include <stdio.h>\n#include <stddef.h>\n");
        final Map<String, Check> checks = new LinkedHashMap<>();
        final List<String> skipped = new ArrayList<>();
        for (final Binding binding : BINDINGS)
        {
            final List<Check> own = checksOf(binding.type());
            if (!Files.exists(include.get().resolve(binding.header())))
            {
                skipped.add(own.size() + " values of " + binding.type().getSimpleName() + " (" + binding.header()
                    + " is not installed in " + include.get() + ")");
                continue;
            }
            program.append(binding.includes());
            for (final Check check : own)
            {
                final Check previous = checks.put(check.key(), check);
                assertTrue(previous == null, "two binding values map to the same C expression " + check.key());
            }
        }
        program.append("int main(void)\n{\n");
        for (final Check check : checks.values())
        {
            program.append("    printf(\"%s\\t%lld\\n\", \"").append(check.key()).append("\", (long long) (")
                .append(check.cExpression()).append("));\n");
        }
        program.append("    return 0;\n}\n");

        final Path source = work.resolve("conformance.c");
        final Path binary = work.resolve("conformance");
        Files.writeString(source, program);
        final Path gccLog = work.resolve("gcc.log");
        final int gccStatus = run(List.of(compiler.get().toString(), "-std=gnu11", "-w", "-I", include.get().toString(),
            "-o", binary.toString(), source.toString()), work, gccLog);
        final String gccOutput = Files.readString(gccLog);
        if (gccStatus != 0)
        {
            fail("the bindings name something the CUDA headers do not define (or define differently); gcc says:\n"
                + gccOutput + "\nprogram: " + source);
        }
        final Path probeLog = work.resolve("probe.out");
        final int probeStatus = run(List.of(binary.toString()), work, probeLog);
        final String output = Files.readString(probeLog);
        assertEquals(0, probeStatus, "the compiled probe failed: " + output);

        final Map<String, Long> header = new LinkedHashMap<>();
        for (final String line : output.split("\n"))
        {
            if (!line.isBlank())
            {
                final String[] parts = line.split("\t");
                header.put(parts[0], Long.parseLong(parts[1].strip()));
            }
        }
        final List<String> mismatches = new ArrayList<>();
        for (final Check check : checks.values())
        {
            final Long actual = header.get(check.key());
            if (actual == null || actual != check.javaValue())
            {
                mismatches.add(check.key() + ": Java has " + check.javaValue() + ", the header has " + actual);
            }
        }
        System.out.println("CudaHeaderConformanceTest: checked " + checks.size() + " values against "
            + include.get() + (skipped.isEmpty() ? "" : "; not checked: " + String.join("; ", skipped)));
        assertTrue(mismatches.isEmpty(), mismatches.size() + " hard-coded values differ from the CUDA headers:\n  "
            + String.join("\n  ", mismatches));
        assertTrue(checks.size() > 100, "expected well over 100 values, checked only " + checks.size());
    }

    /** Everything a binding class hard-codes, as checks against C expressions. */
    static List<Check> checksOf(final Class<?> type)
    {
        final List<Check> checks = new ArrayList<>();
        for (final Field field : type.getDeclaredFields())
        {
            final int modifiers = field.getModifiers();
            if (!Modifier.isPublic(modifiers) || !Modifier.isStatic(modifiers) || !Modifier.isFinal(modifiers))
            {
                continue;
            }
            final Object value;
            try
            {
                value = field.get(null);
            }
            catch (final IllegalAccessException impossible)
            {
                throw new AssertionError(impossible);
            }
            switch (value)
            {
                case Integer number -> checks.add(new Check(field.getName(), number, field.getName()));
                case Long number -> checks.add(new Check(field.getName(), number, field.getName()));
                case StructLayout struct -> addStruct(checks, field, struct);
                case ValueLayout scalar ->
                {
                    final String cType = cName(field, scalar);
                    checks.add(new Check("sizeof(" + cType + ")", scalar.byteSize(), "sizeof(" + cType + ")"));
                    checks.add(new Check("_Alignof(" + cType + ")", scalar.byteAlignment(),
                        "_Alignof(" + cType + ")"));
                }
                default ->
                {
                    // Derived values (e.g. the per-thread stream handle) are built from checked constants.
                }
            }
        }
        return checks;
    }

    private static void addStruct(final List<Check> checks, final Field field, final StructLayout struct)
    {
        final String cType = "struct " + cName(field, struct);
        checks.add(new Check("sizeof(" + cType + ")", struct.byteSize(), "sizeof(" + cType + ")"));
        checks.add(new Check("_Alignof(" + cType + ")", struct.byteAlignment(), "_Alignof(" + cType + ")"));
        for (final MemoryLayout member : struct.memberLayouts())
        {
            if (member instanceof PaddingLayout)
            {
                continue;
            }
            final String memberName = member.name().orElseThrow(() -> new AssertionError(
                field.getName() + " has an unnamed member " + member + "; name it after the C member"));
            final long offset = struct.byteOffset(MemoryLayout.PathElement.groupElement(memberName));
            checks.add(new Check("offsetof(" + cType + ", " + memberName + ")", offset,
                "offsetof(" + cType + ", " + memberName + ")"));
            checks.add(new Check("sizeof(" + cType + "." + memberName + ")", member.byteSize(),
                "sizeof(((" + cType + " *) 0)->" + memberName + ")"));
        }
    }

    private static String cName(final Field field, final MemoryLayout layout)
    {
        return layout.name().orElseThrow(() -> new AssertionError(
            field.getDeclaringClass().getSimpleName() + "." + field.getName() + " must be named with its C spelling"));
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

    private static Optional<Path> findCompiler()
    {
        final String cc = System.getenv("CC");
        final String name = cc == null || cc.isBlank() ? "gcc" : cc.strip();
        if (name.contains("/"))
        {
            return Files.isExecutable(Path.of(name)) ? Optional.of(Path.of(name)) : Optional.empty();
        }
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
        {
            if (!dir.isBlank() && Files.isExecutable(Path.of(dir, name)))
            {
                return Optional.of(Path.of(dir, name));
            }
        }
        return Optional.empty();
    }

    private static void skipUnless(final boolean condition, final String reason)
    {
        if (!condition)
        {
            System.out.println("CudaHeaderConformanceTest: skipped: " + reason);
        }
        assumeTrue(condition, reason);
    }

    /** Runs {@code command} with its output in {@code log} (a file, so a chatty process can never block on a pipe). */
    private static int run(final List<String> command, final Path dir, final Path log)
        throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        if (!process.waitFor(180, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            fail(String.join(" ", command) + " did not finish within 180 s");
        }
        return process.exitValue();
    }
}
