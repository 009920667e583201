package io.ingot.fil;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * The child process of {@link MissingLibraryTest}: serves a repository, prints, in name order,
 * {@code <model> READY <output for row (7, 0)>} for each ready model and {@code <model> UNAVAILABLE <reason>} for
 * each other, and exits.
 */
public final class ServeAndReport
{
    private ServeAndReport()
    {
    }

    public static void main(final String[] args)
    {
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(Path.of(args[0])).build());
            Arena arena = Arena.ofShared())
        {
            for (final ModelIndexEntry entry : core.repositoryIndex(false).stream()
                .sorted(java.util.Comparator.comparing(ModelIndexEntry::name)).toList())
            {
                if (!core.isModelReady(entry.name(), -1))
                {
                    System.out.println(entry.name() + " UNAVAILABLE " + entry.reason());
                    continue;
                }
                try (InferenceResponse response = TestModels.await(core.submit(new InferenceRequest(entry.name())
                    .addInput("input__0", DataType.FP32, new long[] {1, 2},
                        arena.allocateFrom(ValueLayout.JAVA_FLOAT, 7, 0)))).throwIfError())
                {
                    System.out.println(entry.name() + " READY " + response.output("output__0").data()
                        .get(ValueLayout.JAVA_FLOAT, 0));
                }
            }
        }
    }
}
