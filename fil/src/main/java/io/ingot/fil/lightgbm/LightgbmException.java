package io.ingot.fil.lightgbm;

import io.ingot.fil.bundled.NativeBinding;

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
    static void check(final int code, final String call)
    {
        if (code != 0)
        {
            throw new LightgbmException(call + " failed: " + NativeBinding.message(Lightgbm.LGBM_GetLastError(),
                MAX_MESSAGE));
        }
    }
}
