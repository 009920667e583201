package io.ingot.tensorflow;

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
 * The child JVM of {@link MissingLibraryTest}: serves the repository {@code args[0]}, prints one {@code MODEL} line
 * per model (name, state, reason), then one {@code ANSWER} line with {@code add_sub}'s first sum element.
 */
public final class MissingLibraryMain
{
    private MissingLibraryMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(Path.of(args[0])).build());
            Arena arena = Arena.ofShared())
        {
            for (final ModelIndexEntry entry : core.repositoryIndex(false))
            {
                System.out.println("MODEL " + entry.name() + " " + entry.state() + " " + entry.reason()
                    .replace('\n', ' '));
            }
            final MemorySegment a = arena.allocate(64, 64);
            final MemorySegment b = arena.allocate(64, 64);
            a.setAtIndex(ValueLayout.JAVA_FLOAT, 0, 40);
            b.setAtIndex(ValueLayout.JAVA_FLOAT, 0, 2);
            try (InferenceResponse response = core.submit(new InferenceRequest("add_sub")
                .addInput("INPUT0", DataType.FP32, new long[] {1, 16}, a)
                .addInput("INPUT1", DataType.FP32, new long[] {1, 16}, b)).get(60, TimeUnit.SECONDS).throwIfError())
            {
                System.out.println("ANSWER " + response.output("OUTPUT0").data().getAtIndex(ValueLayout.JAVA_FLOAT, 0));
            }
        }
    }
}
