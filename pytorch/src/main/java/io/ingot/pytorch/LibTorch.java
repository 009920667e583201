package io.ingot.pytorch;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.pytorch.engine.PtNDManager;
import ai.djl.pytorch.jni.JniUtils;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * libtorch in this process, loaded once through DJL's PyTorch engine, offline.
 *
 * <p>DJL looks for libtorch on the class path before it would download it ({@code LibUtils.findNativeLibrary}):
 * {@code ai.djl.pytorch:pytorch-native-cpu} carries {@code native/lib/pytorch.properties} and the libraries under
 * {@code pytorch/cpu/linux-x86_64/}, {@code ai.djl.pytorch:pytorch-jni} carries {@code libdjl_torch.so}; both are
 * extracted once into DJL's cache ({@code ~/.djl.ai/pytorch}, or {@code DJL_CACHE_DIR}/{@code ENGINE_CACHE_DIR}) and
 * loaded from there. DJL's offline mode ({@code ai.djl.offline}) is switched on unless the process chose otherwise
 * ({@code DJL_OFFLINE} or {@code -Dai.djl.offline}), so that a missing jar fails here with a clear message instead of
 * a download attempt.
 *
 * <p>A failure is remembered: every later model fails fast with the same message, and the other backends keep
 * serving. Thread-safe.
 */
final class LibTorch
{
    private static final System.Logger LOG = System.getLogger(LibTorch.class.getName());

    /** What this backend was built against, for messages. */
    static final String NATIVE_ARTIFACT = "ai.djl.pytorch:pytorch-native-cpu:2.7.1:linux-x86_64";
    static final String JNI_ARTIFACT = "ai.djl.pytorch:pytorch-jni:2.7.1-0.36.0";

    private static final String ENGINE_NAME = "PyTorch";
    private static final Object LOCK = new Object();
    private static final AtomicBoolean INTRA_OP_SET = new AtomicBoolean();
    private static final AtomicBoolean INTER_OP_SET = new AtomicBoolean();
    /**
     * DJL's engine announces at INFO that its graph-executor optimizer "may impact your inference latency"; here it
     * is set per model ({@code DISABLE_OPTIMIZED_EXECUTION}), so the line would mislead. Held strongly: a
     * {@code java.util.logging} logger's level lives only as long as the logger.
     */
    private static final java.util.logging.Logger DJL_ENGINE_LOG =
        java.util.logging.Logger.getLogger("ai.djl.pytorch.engine.PtEngine");

    private static Engine engine;
    private static String failure;

    private LibTorch()
    {
    }

    /**
     * Loads libtorch on first use.
     *
     * @return DJL's PyTorch engine
     * @throws UnavailableException when libtorch or DJL's JNI cannot be loaded (the message says why and what is
     *                              needed)
     */
    static Engine engine() throws UnavailableException
    {
        synchronized (LOCK)
        {
            if (engine != null)
            {
                return engine;
            }
            if (failure != null)
            {
                throw new UnavailableException(failure);
            }
            if (System.getenv("DJL_OFFLINE") == null && System.getProperty("ai.djl.offline") == null)
            {
                System.setProperty("ai.djl.offline", "true");
            }
            if (DJL_ENGINE_LOG.getLevel() == null)
            {
                DJL_ENGINE_LOG.setLevel(java.util.logging.Level.WARNING);
            }
            try
            {
                final Engine loaded = Engine.getEngine(ENGINE_NAME);
                if (Boolean.getBoolean("ai.djl.pytorch.use_mkldnn"))
                {
                    LOG.log(System.Logger.Level.WARNING, "ai.djl.pytorch.use_mkldnn is set: DJL then converts every"
                        + " input to MKL-DNN layout, a copy; Ingot's PyTorch backend passes inputs without one only"
                        + " when it is not set");
                }
                LOG.log(System.Logger.Level.INFO, "libtorch {0} loaded (intra-op threads {1}, inter-op threads {2})",
                    loaded.getVersion(), JniUtils.getNumThreads(), JniUtils.getNumInteropThreads());
                engine = loaded;
                return loaded;
            }
            catch (final RuntimeException | LinkageError e)
            {
                failure = "libtorch cannot be loaded (" + causes(e) + "). Ingot's PyTorch backend loads libtorch from "
                    + NATIVE_ARTIFACT + " and DJL's JNI from " + JNI_ARTIFACT + ", both on the class path, and never"
                    + " downloads them (DJL runs offline)";
                throw new UnavailableException(failure, e);
            }
        }
    }

    /**
     * @return a new manager of CPU tensors, closed by its owner
     * @throws UnavailableException when libtorch cannot be loaded
     */
    static PtNDManager newManager() throws UnavailableException
    {
        return (PtNDManager)engine().newBaseManager(Device.cpu());
    }

    /**
     * Sets libtorch's process-wide thread pools as Triton does: each at most once per process (the first model that
     * asks wins; {@code at::set_num_interop_threads} cannot be called twice), values below 1 ignored.
     *
     * @param model          the model asking, for the log
     * @param intraOpThreads {@code INTRA_OP_THREAD_COUNT}, or {@code -1}
     * @param interOpThreads {@code INTER_OP_THREAD_COUNT}, or {@code -1}
     */
    static void applyThreadCounts(final String model, final int intraOpThreads, final int interOpThreads)
    {
        if (intraOpThreads > 0 && INTRA_OP_SET.compareAndSet(false, true))
        {
            JniUtils.setNumThreads(intraOpThreads);
        }
        if (intraOpThreads > 0)
        {
            LOG.log(System.Logger.Level.INFO, "Intra op thread count is set to {0} for model instance ''{1}''",
                JniUtils.getNumThreads(), model);
        }
        if (interOpThreads > 0 && INTER_OP_SET.compareAndSet(false, true))
        {
            try
            {
                JniUtils.setNumInteropThreads(interOpThreads);
            }
            catch (final RuntimeException e)
            {
                LOG.log(System.Logger.Level.WARNING, "model ''{0}'': libtorch kept its inter-op thread count: {1}",
                    model, e.getMessage());
            }
        }
        if (interOpThreads > 0)
        {
            LOG.log(System.Logger.Level.INFO, "Inter op thread count is set to {0} for model instance ''{1}''",
                JniUtils.getNumInteropThreads(), model);
        }
    }

    private static String causes(final Throwable failure)
    {
        final StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause())
        {
            final String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            if (text.indexOf(message) < 0)
            {
                text.append(text.isEmpty() ? "" : ": ").append(message);
            }
        }
        while (!text.isEmpty() && text.charAt(text.length() - 1) == '.')
        {
            text.setLength(text.length() - 1);
        }
        return text.toString();
    }

    /** libtorch is not available in this process. */
    static final class UnavailableException extends Exception
    {
        private static final long serialVersionUID = 1L;

        UnavailableException(final String message)
        {
            super(message);
        }

        UnavailableException(final String message, final Throwable cause)
        {
            super(message, cause);
        }
    }
}
