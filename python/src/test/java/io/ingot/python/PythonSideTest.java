package io.ingot.python;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Python side on its own: the unit tests of {@code triton_python_backend_utils}
 * ({@code src/test/python}, Python's unittest), and the stub's layout and protocol numbers (record types, flags, the
 * sizes of its frame headers) against this module's ({@link StubRegionDescriptor}, {@link StubProtocol}), read from
 * the stub's link module itself.
 */
class PythonSideTest
{
    private static final Path MODULE = Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
        .toAbsolutePath();
    private static final Path SOURCES = MODULE.resolve("src/main/python");
    private static final Path CLIENTS = MODULE.getParent().resolve("clients/python");

    @BeforeAll
    static void requirePython()
    {
        PythonTests.requirePython(PythonSideTest.class);
    }

    @Test
    void theUtilsUnitTestsPass() throws Exception
    {
        final String output = run(MODULE.resolve("src/test/python"), "-m", "unittest", "-v",
            "test_triton_python_backend_utils");
        assertTrue(output.contains("\nOK"), output);
    }

    @Test
    void theStubUsesTheLayoutAndRecordTypesOfThisModule() throws Exception
    {
        final String output = run(SOURCES, "-c", "import json, struct, ingot_stub_link as s; "
            + "v = {k: v for k, v in vars(s).items() if isinstance(v, int) and (k.isupper() or k.startswith('_H_'))}; "
            + "v.update({k + '_LENGTH': x.size for k, x in vars(s).items() if isinstance(x, struct.Struct)}); "
            + "print(json.dumps(v))");
        final JsonObject python = JsonParser.parseString(output.lines().reduce((a, b) -> b).orElseThrow())
            .getAsJsonObject();
        final Map<String, Long> java = new LinkedHashMap<>();
        for (final Field field : StubRegionDescriptor.class.getDeclaredFields())
        {
            if (field.getType() == int.class || field.getType() == long.class)
            {
                final String name = field.getName();
                final String key = name.endsWith("_OFFSET") ? "_H_" + name.substring(0, name.length() - 7) : name;
                java.put(key, ((Number)field.get(null)).longValue());
            }
        }
        for (final String constant : new String[] {"INIT", "EXECUTE", "BLS_RESPONSE", "FINALIZE", "REPLY", "HELLO",
            "INIT_RESULT", "EXECUTE_RESULT", "BLS_REQUEST", "RELEASE", "FINALIZE_RESULT", "RESPONSE", "CALL",
            "INDIRECT", "EXECUTE_DECOUPLED", "SEQUENCE_START", "SEQUENCE_END", "CORRELATION_STRING", "BLS_DECOUPLED",
            "SEND_FINAL", "SEND_HAS_RESPONSE", "SEND_DROPPED", "BLS_FINAL", "EXECUTE_HEADER_LENGTH",
            "REQUEST_HEADER_LENGTH", "RESULT_HEADER_LENGTH", "RESPONSE_HEADER_LENGTH", "REPLY_HEADER_LENGTH",
            "CALL_HEADER_LENGTH", "BLS_REQUEST_HEADER_LENGTH", "BLS_RESPONSE_HEADER_LENGTH"})
        {
            java.put(constant, ((Number)StubProtocol.class.getDeclaredField(constant).get(null)).longValue());
        }
        java.put("SEND_HEADER_LENGTH", (long)StubProtocol.SEND_HEADER_LENGTH);
        java.remove("HEADER_LENGTH");
        java.remove("_H_MAGIC");
        java.remove("_H_HEADER_LENGTH");
        java.remove("_H_STUB_WAITING");
        java.remove("_H_PARENT_WAITING");
        java.remove("_H_PUMP_WAITING");
        for (final Map.Entry<String, Long> entry : java.entrySet())
        {
            assertTrue(python.has(entry.getKey()), "the stub names no " + entry.getKey() + ": " + python);
            assertEquals(entry.getValue().longValue(), python.get(entry.getKey()).getAsLong(), entry.getKey());
        }
    }

    private static String run(final Path directory, final String... arguments) throws Exception
    {
        final String[] command = new String[arguments.length + 2];
        command[0] = "/usr/bin/python3";
        command[1] = "-B";
        System.arraycopy(arguments, 0, command, 2, arguments.length);
        final ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
            .redirectErrorStream(true);
        builder.environment().put("PYTHONPATH", SOURCES + ":" + CLIENTS);
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "python did not finish: " + output);
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
