package io.ingot.onnx.capi;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemoryLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bindings against {@code onnxruntime_c_api.h} of ONNX Runtime 1.23.2, compiled with gcc: every bound function's
 * slot is {@code offsetof(OrtApi, name) / sizeof(void*)}, {@code ORT_API_VERSION} and {@code sizeof(OrtApi)} agree,
 * {@code OrtApiBase}'s members sit at the layout's offsets, and every header constant in {@link OrtApi} has the
 * header's value.
 *
 * <p>The header is Microsoft's (MIT-licensed third-party code, not committed here) and no registry CI can reach ships
 * the 1.23.2 headers (the {@code onnxruntime} jar and the {@code onnxruntime-node} npm package hold only the
 * libraries), so the test reads it from the folder named by {@value #INCLUDE_ENV} (default
 * {@code <project root>/../onnxruntime-include}) and is skipped, saying so, where it is absent or gcc is missing.
 * {@link OrtApiTest} checks every slot against the library's behaviour, and runs everywhere.
 */
class OrtApiHeaderTest
{
    /** Environment variable naming the folder that holds {@code onnxruntime_c_api.h} of 1.23.2. */
    static final String INCLUDE_ENV = "INGOT_ORT_INCLUDE";

    @TempDir
    Path work;

    @Test
    void slotsConstantsAndLayoutsMatchTheHeader() throws Exception
    {
        final Path include = includeFolder();
        Assumptions.assumeTrue(Files.isRegularFile(include.resolve("onnxruntime_c_api.h")),
            "onnxruntime_c_api.h of ONNX Runtime 1.23.2 is not in " + include + " (set " + INCLUDE_ENV
                + " to a folder holding it, e.g. include/onnxruntime/core/session of microsoft/onnxruntime v1.23.2)");
        Assumptions.assumeTrue(gccWorks(), "gcc is not installed");
        final Map<String, Integer> slots = new TreeMap<>(OrtApi.boundFunctions());
        final Map<String, Integer> constants = headerConstants();
        final StringBuilder c = new StringBuilder("#include \"onnxruntime_c_api.h\"\n#include <stddef.h>\n"
            + "#include <stdio.h>\nint main(void) {\n"
            + "  printf(\"version %d\\n\", ORT_API_VERSION);\n"
            + "  printf(\"slots %zu\\n\", sizeof(OrtApi) / sizeof(void*));\n"
            + "  printf(\"base.GetApi %zu\\n\", offsetof(OrtApiBase, GetApi));\n"
            + "  printf(\"base.GetVersionString %zu\\n\", offsetof(OrtApiBase, GetVersionString));\n"
            + "  printf(\"base.size %zu\\n\", sizeof(OrtApiBase));\n");
        for (final String name : slots.keySet())
        {
            c.append("  printf(\"slot.").append(name).append(" %zu\\n\", offsetof(OrtApi, ").append(name)
                .append(") / sizeof(void*));\n");
        }
        for (final String name : constants.keySet())
        {
            c.append("  printf(\"const.").append(name).append(" %d\\n\", (int) ").append(name).append(");\n");
        }
        c.append("  return 0;\n}\n");
        final Map<String, Long> printed = compileAndRun(include, c.toString());

        assertEquals(OrtApi.ORT_API_VERSION, printed.get("version").intValue(), "ORT_API_VERSION");
        assertEquals(OrtApi.ORT_API_SLOTS, printed.get("slots").intValue(), "sizeof(OrtApi) / sizeof(void*)");
        assertEquals(OrtApi.ORT_API_BASE.byteSize(), printed.get("base.size"), "sizeof(OrtApiBase)");
        for (final String member : new String[] {"GetApi", "GetVersionString"})
        {
            assertEquals(OrtApi.ORT_API_BASE.byteOffset(MemoryLayout.PathElement.groupElement(member)),
                printed.get("base." + member), "offsetof(OrtApiBase, " + member + ")");
        }
        assertTrue(slots.size() >= 50, "bound functions: " + slots.keySet());
        for (final Map.Entry<String, Integer> slot : slots.entrySet())
        {
            assertEquals(slot.getValue().longValue(), printed.get("slot." + slot.getKey()),
                "offsetof(OrtApi, " + slot.getKey() + ") / sizeof(void*)");
        }
        for (final Map.Entry<String, Integer> constant : constants.entrySet())
        {
            assertEquals(constant.getValue().longValue(), printed.get("const." + constant.getKey()),
                constant.getKey());
        }
    }

    /** @return every {@code int} constant of {@link OrtApi} that the header defines too, by name */
    private static Map<String, Integer> headerConstants() throws IllegalAccessException
    {
        final Map<String, Integer> constants = new TreeMap<>();
        for (final Field field : OrtApi.class.getFields())
        {
            if (field.getType() == int.class && Modifier.isStatic(field.getModifiers())
                && !field.getName().equals("ORT_API_SLOTS"))
            {
                constants.put(field.getName(), field.getInt(null));
            }
        }
        return constants;
    }

    static Path includeFolder()
    {
        final String configured = System.getenv(INCLUDE_ENV);
        if (configured != null && !configured.isBlank())
        {
            return Path.of(configured);
        }
        // Tests run in the module folder: the project root is its parent.
        return Path.of("..", "..", "onnxruntime-include").toAbsolutePath().normalize();
    }

    private static boolean gccWorks()
    {
        try
        {
            final Process gcc = new ProcessBuilder("gcc", "--version").redirectErrorStream(true).start();
            gcc.getInputStream().readAllBytes();
            return gcc.waitFor(30, TimeUnit.SECONDS) && gcc.exitValue() == 0;
        }
        catch (final IOException | InterruptedException e)
        {
            return false;
        }
    }

    private Map<String, Long> compileAndRun(final Path include, final String source) throws Exception
    {
        final Path c = work.resolve("ort_offsets.c");
        final Path binary = work.resolve("ort_offsets");
        Files.writeString(c, source);
        final Process gcc = new ProcessBuilder("gcc", "-std=c11", "-I", include.toString(), "-o", binary.toString(),
            c.toString()).redirectErrorStream(true).start();
        final String compiled = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(gcc.waitFor(120, TimeUnit.SECONDS) && gcc.exitValue() == 0, "gcc failed:\n" + compiled);
        final Process run = new ProcessBuilder(binary.toString()).redirectErrorStream(true).start();
        final String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(run.waitFor(30, TimeUnit.SECONDS) && run.exitValue() == 0, output);
        final Map<String, Long> printed = new HashMap<>();
        for (final String line : output.split("\n"))
        {
            final String[] parts = line.trim().split(" ");
            if (parts.length == 2)
            {
                printed.put(parts[0], Long.parseLong(parts[1]));
            }
        }
        return printed;
    }
}
