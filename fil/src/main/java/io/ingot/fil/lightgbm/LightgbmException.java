package io.ingot.fil.lightgbm;

/**
 * A LightGBM C API call returned an error. The message names the call and carries LightGBM's own text
 * ({@code LGBM_GetLastError}), cut to {@value #MAX_MESSAGE} characters.
 */
public final class LightgbmException extends RuntimeException
{
    /** The longest LightGBM message kept. */
    public static final int MAX_MESSAGE = 2000;

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, with LightGBM's text
     */
    public LightgbmException(final String message)
    {
        super(message);
    }

    /**
     * @param code a return code
     * @param call the C function that returned it
     * @throws LightgbmException with this thread's last LightGBM error when the code is not 0
     */
    @SuppressWarnings("restricted") // LightGBM's message is a NUL-terminated string of unknown length
    static void check(final int code, final String call)
    {
        if (code != 0)
        {
            String text = Lightgbm.LGBM_GetLastError().reinterpret(Long.MAX_VALUE).getString(0).strip();
            if (text.length() > MAX_MESSAGE)
            {
                text = text.substring(0, MAX_MESSAGE) + "...";
            }
            throw new LightgbmException(call + " failed: " + text);
        }
    }
}
