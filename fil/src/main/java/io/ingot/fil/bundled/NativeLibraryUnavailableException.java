package io.ingot.fil.bundled;

/**
 * A bundled native library could not be extracted or loaded. The message names the library, the Maven artifact it
 * comes from and the reason (missing from the class path, an unsupported platform, a file {@code dlopen} refused and
 * why).
 */
public final class NativeLibraryUnavailableException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what could not be loaded and why
     */
    public NativeLibraryUnavailableException(final String message)
    {
        super(message);
    }
}
