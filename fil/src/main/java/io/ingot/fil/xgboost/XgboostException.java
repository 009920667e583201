package io.ingot.fil.xgboost;

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
    @SuppressWarnings("restricted") // XGBoost's message is a NUL-terminated string of unknown length
    static XgboostException lastError(final String call)
    {
        String text = Xgboost.XGBGetLastError().reinterpret(Long.MAX_VALUE).getString(0).strip();
        if (text.length() > MAX_MESSAGE)
        {
            text = text.substring(0, MAX_MESSAGE) + "...";
        }
        return new XgboostException(call + " failed: " + text);
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
