package io.ingot.ipc;

/**
 * Status codes of RESPONSE frames: 0 for success, else Triton's error categories in the order of Ingot's
 * {@code ErrorCode}.
 */
public final class IpcStatus
{
    /** The request succeeded; the response carries its outputs. */
    public static final int OK = 0;
    /** Malformed or inconsistent request, unknown model. */
    public static final int INVALID_ARG = 1;
    /** Unknown model version. */
    public static final int NOT_FOUND = 2;
    /** Queue full, timed out, server or model stopping, client space exhausted. */
    public static final int UNAVAILABLE = 3;
    /** Engine failure or a bug. */
    public static final int INTERNAL = 4;
    /** The request was cancelled. */
    public static final int CANCELLED = 5;
    /** Not supported. */
    public static final int UNSUPPORTED = 6;
    /** The resource exists already. */
    public static final int ALREADY_EXISTS = 7;
    /** Anything else. */
    public static final int UNKNOWN = 8;

    private static final String[] NAMES =
        {"OK", "INVALID_ARG", "NOT_FOUND", "UNAVAILABLE", "INTERNAL", "CANCELLED", "UNSUPPORTED", "ALREADY_EXISTS",
            "UNKNOWN"};

    private IpcStatus()
    {
    }

    /**
     * @param status a status code
     * @return its name ({@code "INVALID_ARG"}), or {@code "STATUS_<n>"} for a code this version does not know
     */
    public static String name(final int status)
    {
        return status >= 0 && status < NAMES.length ? NAMES[status] : "STATUS_" + status;
    }
}
