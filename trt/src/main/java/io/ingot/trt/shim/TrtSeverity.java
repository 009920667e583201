package io.ingot.trt.shim;

/** TensorRT's logger severities ({@code nvinfer1::ILogger::Severity}), most severe first. */
public enum TrtSeverity
{
    /** An internal error; TensorRT may be unusable afterwards. */
    INTERNAL_ERROR(System.Logger.Level.ERROR),
    /** An application error: a call failed. */
    ERROR(System.Logger.Level.ERROR),
    /** A possible application error. */
    WARNING(System.Logger.Level.WARNING),
    /** Informational (TensorRT is chatty here: engine sizes, tactics; logged at DEBUG). */
    INFO(System.Logger.Level.DEBUG),
    /** Verbose debugging output (logged at TRACE). */
    VERBOSE(System.Logger.Level.TRACE);

    private static final TrtSeverity[] VALUES = values();

    private final System.Logger.Level level;

    TrtSeverity(final System.Logger.Level level)
    {
        this.level = level;
    }

    /** @return the {@link System.Logger} level messages of this severity are logged at */
    public System.Logger.Level level()
    {
        return level;
    }

    /**
     * @param code TensorRT's severity value
     * @return the severity; values beyond {@link #VERBOSE} map to {@link #VERBOSE}, negative ones to
     *         {@link #INTERNAL_ERROR}
     */
    public static TrtSeverity of(final int code)
    {
        return VALUES[Math.max(0, Math.min(code, VALUES.length - 1))];
    }
}
