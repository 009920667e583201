package io.ingot.trt.shim;

/**
 * Receives TensorRT's log messages. Called on whatever thread TensorRT logs from, including threads the JVM did
 * not create, possibly concurrently: implementations must be thread-safe and quick. An exception thrown here is
 * caught and counted ({@link TrtLogger#listenerFailures()}), never propagated into native code.
 */
@FunctionalInterface
public interface TrtLogListener
{
    /**
     * @param severity the message's severity
     * @param message  the message text
     */
    void log(TrtSeverity severity, String message);
}
