package io.ingot.cuda;

import java.util.List;
import java.util.Objects;

/**
 * A native library could not be loaded from any place the {@link NativeLibraryLoader} searched. The message lists
 * every place tried, in order, with what happened there, and says how to install the library.
 */
public final class NativeLibraryNotFoundException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * One place the loader tried.
     *
     * @param place   a file path, or {@code dlopen("soname")} for the system search
     * @param origin  why this place was searched (e.g. {@code $CUDA_HOME/lib64}, {@code LD_LIBRARY_PATH})
     * @param outcome what happened: {@code "not present"} or the loader's error
     */
    public record Attempt(String place, String origin, String outcome)
    {
        /** Validates that no component is null. */
        public Attempt
        {
            Objects.requireNonNull(place, "place");
            Objects.requireNonNull(origin, "origin");
            Objects.requireNonNull(outcome, "outcome");
        }
    }

    private final transient NativeLibrary library;
    private final transient List<Attempt> attempts;

    /**
     * Creates the exception for a library that was looked for in {@code attempts}.
     *
     * @param library  what was looked for
     * @param attempts every place tried, in order (may be empty when the search path was empty)
     */
    public NativeLibraryNotFoundException(final NativeLibrary library, final List<Attempt> attempts)
    {
        super(describe(library, attempts));
        this.library = library;
        this.attempts = List.copyOf(attempts);
    }

    /**
     * Creates a fresh copy of {@code original}, with {@code original} as its cause, so that a failure remembered at
     * class-initialisation time can be rethrown with the stack trace of each later call.
     *
     * @param original the failure to copy
     */
    public NativeLibraryNotFoundException(final NativeLibraryNotFoundException original)
    {
        super(original.getMessage(), original);
        this.library = original.library;
        this.attempts = original.attempts;
    }

    /** @return the library that was looked for */
    public NativeLibrary library()
    {
        return library;
    }

    /** @return every place tried, in search order */
    public List<Attempt> attempts()
    {
        return attempts;
    }

    private static String describe(final NativeLibrary library, final List<Attempt> attempts)
    {
        final StringBuilder text = new StringBuilder()
            .append(library.fileName()).append(" (").append(library.description()).append(") could not be loaded. ");
        if (attempts.isEmpty())
        {
            text.append("Nothing was tried: the search path is empty.");
        }
        else
        {
            text.append("Tried, in order:");
            for (int i = 0; i < attempts.size(); i++)
            {
                final Attempt attempt = attempts.get(i);
                text.append("\n  ").append(i + 1).append(". ").append(attempt.place())
                    .append("  [").append(attempt.origin()).append("]: ").append(attempt.outcome());
            }
        }
        return text.append('\n').append(library.installHint()).toString();
    }
}
