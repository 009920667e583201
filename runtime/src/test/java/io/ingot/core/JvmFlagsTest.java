package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.tensor.DataType;
import io.ingot.testing.ChildProcess;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JVM flags an application that links the core in needs: {@code --enable-native-access} and nothing else. Each
 * case runs README's in-process example (open, submit, close on the built-in add_sub model) in a JVM of its own,
 * started without any {@code --add-opens} or {@code --add-exports} (this test JVM's own flags are not passed on).
 */
class JvmFlagsTest
{
    @Test
    void theCoreRunsWithNativeAccessAloneAndNoModuleFlags() throws Exception
    {
        final List<String> command = ChildProcess.javaCommand(EmbeddedCoreMain.class, List.of());
        assertFalse(command.stream().anyMatch(arg -> arg.startsWith("--add-opens") || arg.startsWith("--add-exports")),
            "the child must run without module flags: " + command);
        try (ChildProcess child = ChildProcess.start(command))
        {
            final int exit = child.awaitExit(120);
            final String output = child.output();
            assertEquals(0, exit, output);
            assertTrue(output.contains("sum[15]=16.0"), output);
            assertFalse(output.contains("IllegalAccessError") || output.contains("WARNING"), output);
        }
    }

    @Test
    void aJvmThatDeniesNativeAccessFailsAtOpenNamingTheFlag() throws Exception
    {
        final List<String> command = new ArrayList<>(ChildProcess.javaCommand(EmbeddedCoreMain.class, List.of()));
        assertTrue(command.remove("--enable-native-access=ALL-UNNAMED"), command.toString());
        command.add(1, "--illegal-native-access=deny");
        try (ChildProcess child = ChildProcess.start(command))
        {
            final int exit = child.awaitExit(120);
            final String output = child.output();
            assertNotEquals(0, exit, output);
            assertTrue(output.contains("open failed: java.lang.IllegalStateException: Ingot needs native access"
                + " (java.lang.foreign), and this JVM denies it"), output);
            assertTrue(output.contains("start java with --enable-native-access=ALL-UNNAMED"), output);
            assertFalse(output.contains("ExceptionInInitializerError"), output);
        }
    }

    /** README's in-process example on the built-in add_sub backend; prints the sum, or why open failed. */
    static final class EmbeddedCoreMain
    {
        private EmbeddedCoreMain()
        {
        }

        public static void main(final String[] args)
        {
            final CoreOptions options = TestModels.options(TestModels.config("name: 'add_sub' backend: 'add_sub'"
                + " max_batch_size: 8 input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [16] },"
                + " { name: 'INPUT1' data_type: TYPE_FP32 dims: [16] }]"
                + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [16] },"
                + " { name: 'OUTPUT1' data_type: TYPE_FP32 dims: [16] }]")).build();
            final InferenceCore opened;
            try
            {
                opened = InferenceCore.open(options);
            }
            catch (final RuntimeException ex)
            {
                System.out.println("open failed: " + ex);
                System.exit(2);
                return;
            }
            try (Arena arena = Arena.ofShared(); InferenceCore core = opened)
            {
                final MemorySegment a = arena.allocate(64);
                final MemorySegment b = arena.allocate(64);
                for (int i = 0; i < 16; i++)
                {
                    a.setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
                    b.setAtIndex(ValueLayout.JAVA_FLOAT, i, 1);
                }
                final InferenceRequest request = new InferenceRequest("add_sub")
                    .addInput("INPUT0", DataType.FP32, new long[] {1, 16}, a)
                    .addInput("INPUT1", DataType.FP32, new long[] {1, 16}, b);
                try (InferenceResponse response = core.submit(request).join().throwIfError())
                {
                    System.out.println("sum[15]="
                        + response.output("OUTPUT0").data().getAtIndex(ValueLayout.JAVA_FLOAT, 15));
                }
            }
        }
    }
}
