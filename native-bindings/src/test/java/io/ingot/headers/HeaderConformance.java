package io.ingot.headers;

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
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the header conformance tests share: reading everything a binding class hard-codes by reflection (every
 * public static final int/long field is a header constant of the same name, every public ValueLayout names a C type,
 * every public StructLayout names a struct whose named members must sit at the same offsets with the same sizes),
 * and a C program, compiled with gcc, that prints the headers' values for comparison.
 */
public final class HeaderConformance
{
    /** One value to compare: printed by the C program under {@code key}. */
    public record Check(String key, long javaValue, String cExpression)
    {
    }

    private HeaderConformance()
    {
    }

    /**
     * @param type a binding class
     * @return everything it hard-codes, as checks against C expressions
     */
    public static List<Check> checksOf(final Class<?> type)
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

    /**
     * Writes a program that includes {@code includes} and prints every check's C expression, compiles it, runs it
     * and compares.
     *
     * @param checks       the values to compare
     * @param includes     the {@code #include} lines
     * @param compilerArgs extra gcc arguments ({@code -I dir})
     * @param compiler     gcc
     * @param work         a scratch folder
     * @return one line per value that differs (empty when all match)
     * @throws IOException          when the files cannot be written
     * @throws InterruptedException when interrupted while compiling or running
     */
    public static List<String> mismatches(final Collection<Check> checks, final String includes,
        final List<String> compilerArgs, final Path compiler, final Path work) throws IOException, InterruptedException
    {
        final StringBuilder program = new StringBuilder("#include <stdio.h>\n#include <stddef.h>\n").append(includes);
        program.append("int main(void)\n{\n");
        for (final Check check : checks)
        {
            program.append("    printf(\"%s\\t%lld\\n\", \"").append(check.key()).append("\", (long long) (")
                .append(check.cExpression()).append("));\n");
        }
        program.append("    return 0;\n}\n");

        final Path source = work.resolve("conformance.c");
        final Path binary = work.resolve("conformance");
        Files.writeString(source, program);
        final Path gccLog = work.resolve("gcc.log");
        final List<String> command = new ArrayList<>(List.of(compiler.toString(), "-std=gnu11", "-w"));
        command.addAll(compilerArgs);
        command.addAll(List.of("-o", binary.toString(), source.toString()));
        if (run(command, work, gccLog) != 0)
        {
            fail("the bindings name something the headers do not define (or define differently); gcc says:\n"
                + Files.readString(gccLog) + "\nprogram: " + source);
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
        for (final Check check : checks)
        {
            final Long actual = header.get(check.key());
            if (actual == null || actual != check.javaValue())
            {
                mismatches.add(check.key() + ": Java has " + check.javaValue() + ", the header has " + actual);
            }
        }
        return mismatches;
    }

    /** @return gcc (or {@code $CC}) when it is installed */
    public static Optional<Path> findCompiler()
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
