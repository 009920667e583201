package io.ingot.cuda;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The jextract filters checked in for {@code tools/jextract.sh} list every function and constant the hand-written
 * bindings use, so that regenerated raw bindings can always be compared with them.
 */
class JextractIncludesTest
{
    private static final Path INCLUDES = Path.of("src/jextract");

    @Test
    void cudartIncludesListEveryBoundFunctionAndConstant() throws IOException
    {
        assertListed(CudaRuntime.class, "cuda", INCLUDES.resolve("cudart.includes"));
    }

    @Test
    void cublasIncludesListEveryBoundFunctionAndConstant() throws IOException
    {
        assertListed(Cublas.class, "cublas", INCLUDES.resolve("cublas.includes"));
    }

    private static void assertListed(final Class<?> binding, final String functionPrefix, final Path file)
        throws IOException
    {
        final Set<String> lines = Files.readAllLines(file).stream()
            .map(String::strip)
            .filter(line -> !line.isEmpty() && !line.startsWith("#"))
            .collect(Collectors.toSet());
        final List<String> missing = new ArrayList<>();
        for (final Method method : binding.getDeclaredMethods())
        {
            if (Modifier.isPublic(method.getModifiers()) && Modifier.isStatic(method.getModifiers())
                && method.getName().startsWith(functionPrefix)
                && !lines.contains("--include-function " + method.getName()))
            {
                missing.add("--include-function " + method.getName());
            }
        }
        for (final Field field : binding.getDeclaredFields())
        {
            final boolean constant = Modifier.isPublic(field.getModifiers()) && Modifier.isStatic(field.getModifiers())
                && (field.getType() == int.class || field.getType() == long.class);
            if (constant && !lines.contains("--include-constant " + field.getName()))
            {
                missing.add("--include-constant " + field.getName());
            }
        }
        assertTrue(missing.isEmpty(), file + " lacks lines for what " + binding.getSimpleName() + " binds:\n  "
            + String.join("\n  ", missing));
    }
}
