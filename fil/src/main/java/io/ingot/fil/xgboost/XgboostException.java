package io.ingot.fil.xgboost;

import io.ingot.fil.bundled.NativeBinding;

/**
 * An XGBoost C API call returned an error. The message names the call and carries XGBoost's own text
 * ({@code XGBGetLastError}), cut to {@value #MAX_MESSAGE} characters so that a huge native message cannot flood a
 * log.
 */
public final class XgboostException extends RuntimeException
{
    /** The longest XGBoost message kept. */
    public static final int MAX_MESSAGE = 2000;

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, with XGBoost's text
     */
    public XgboostException(final String message)
    {
        super(message);
    }

    /**
     * @param call the C function that failed
     * @return an exception with this thread's last XGBoost error
     */
    static XgboostException lastError(final String call)
    {
        return new XgboostException(call + " failed: " + NativeBinding.message(Xgboost.XGBGetLastError(),
            MAX_MESSAGE));
    }

    /**
     * @param code a return code
     * @param call the C function that returned it
     * @throws XgboostException when the code is not 0
     */
    static void check(final int code, final String call)
    {
        if (code != 0)
        {
            throw lastError(call);
        }
    }
}
