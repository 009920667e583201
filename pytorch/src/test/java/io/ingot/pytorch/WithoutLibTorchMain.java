package io.ingot.pytorch;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.tensor.DataType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Run by {@link WithoutLibTorchTest} in a JVM whose class path lacks libtorch: serves a repository holding a
 * TorchScript model and an identity model, and prints each model's state and the identity model's answer.
 */
public final class WithoutLibTorchMain
{
    private WithoutLibTorchMain()
    {
    }

    /**
     * @param args the model repository
     * @throws Exception when serving fails
     */
    public static void main(final String[] args) throws Exception
    {
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(Path.of(args[0])).build());
            Arena arena = Arena.ofShared())
        {
            for (final ModelIndexEntry entry : core.repositoryIndex(false))
            {
                System.out.println("model " + entry.name() + " " + entry.state() + " " + entry.reason());
            }
            final MemorySegment data = arena.allocate(4, 4);
            data.set(ValueLayout.JAVA_FLOAT, 0, 42f);
            try (InferenceResponse response = core.submit(new InferenceRequest("echo")
                .addInput("INPUT0", DataType.FP32, new long[] {1, 1}, data)).get(30, TimeUnit.SECONDS)
                .throwIfError())
            {
                System.out.println("echo answered " + response.output("OUTPUT0").data().get(ValueLayout.JAVA_FLOAT, 0));
            }
        }
    }
}
