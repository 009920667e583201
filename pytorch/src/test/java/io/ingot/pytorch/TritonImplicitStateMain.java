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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Run by {@link TritonImplicitStateTest} in a JVM of its own, because Triton's {@code implicit_state_model} reports a
 * state that does not belong to its sequence by printing from TorchScript ({@code print}, libtorch's standard output)
 * and the test reads that output, as Triton's {@code implicit_state_test.py} reads the server log.
 *
 * <p>It serves the repository and plays Triton's scenario on {@code sequence_state}: sequence 1 sends three requests
 * and is abandoned (no END) until it idles out ({@code max_sequence_idle_microseconds} 6 s), while sequences 2 and 3
 * wait for the one candidate slot ({@code oldest { max_candidate_sequences: 1 }}) and then run four requests each,
 * interleaved. It prints each sequence's outputs, then a marker line, then sends one request to
 * {@code sequence_state_inverted} (the same model with START's false and true values swapped), which must make the
 * model print its error: the proof that such a print would have been seen.
 */
public final class TritonImplicitStateMain
{
    /** Printed before the request that must make the model print its error. */
    static final String MARKER = "now the inverted START";

    private TritonImplicitStateMain()
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
            final List<Long> first = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                first.add(answer(core.submit(request(arena, "sequence_state", 1, i == 0, false))));
            }
            System.out.println("sequence 1 " + first);
            final long start = System.nanoTime();
            final List<CompletableFuture<InferenceResponse>> second = new ArrayList<>();
            final List<CompletableFuture<InferenceResponse>> third = new ArrayList<>();
            for (int i = 0; i < 4; i++)
            {
                second.add(core.submit(request(arena, "sequence_state", 2, i == 0, i == 3)));
                third.add(core.submit(request(arena, "sequence_state", 3, i == 0, i == 3)));
            }
            System.out.println("sequence 2 " + answers(second));
            System.out.println("sequence 3 " + answers(third));
            System.out.println("sequences 2 and 3 took " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
                + " ms");
            System.out.println(MARKER);
            System.out.println("inverted " + answer(core.submit(request(arena, "sequence_state_inverted", 9, true,
                true))));
            System.out.flush();
        }
    }

    private static InferenceRequest request(final Arena arena, final String model, final long id,
        final boolean start, final boolean end)
    {
        final MemorySegment delay = arena.allocate(8, 8);
        delay.set(ValueLayout.JAVA_LONG, 0, 10);
        return new InferenceRequest(model).sequence(id, start, end)
            .addInput("DELAY_ITRS__0", DataType.INT64, new long[] {1, 1}, delay);
    }

    private static List<Long> answers(final List<CompletableFuture<InferenceResponse>> futures) throws Exception
    {
        final List<Long> answers = new ArrayList<>();
        for (final CompletableFuture<InferenceResponse> future : futures)
        {
            answers.add(answer(future));
        }
        return answers;
    }

    private static long answer(final CompletableFuture<InferenceResponse> future) throws Exception
    {
        try (InferenceResponse response = future.get(60, TimeUnit.SECONDS).throwIfError())
        {
            return response.output("DUMMY_OUT__0").data().get(ValueLayout.JAVA_LONG, 0);
        }
    }
}
