package io.ingot.pytorch;

import ai.djl.engine.EngineException;
import ai.djl.pytorch.engine.PtNDManager;
import ai.djl.pytorch.engine.PtSymbolBlock;
import ai.djl.pytorch.jni.JniUtils;

import java.nio.file.Path;

/**
 * One {@code torch::jit::Module} loaded from a {@code model.pt}, with the DJL manager that owns it; closing it frees
 * both. Loaded as Triton loads it: onto the CPU, under inference mode when the model runs under it (Triton guards
 * loading with {@code torch::InferenceMode} too); DJL puts the module in eval mode.
 *
 * @param manager the manager the module (and the tensors made for it) belong to
 * @param module  the module
 */
record LoadedModule(PtNDManager manager, PtSymbolBlock module) implements AutoCloseable
{
    /**
     * @param file          the TorchScript file
     * @param inferenceMode whether to load under inference mode
     * @return the module
     * @throws LibTorch.UnavailableException when libtorch cannot be loaded
     * @throws EngineException               with libtorch's message when the file cannot be loaded
     */
    static LoadedModule load(final Path file, final boolean inferenceMode) throws LibTorch.UnavailableException
    {
        final PtNDManager manager = LibTorch.newManager();
        try
        {
            final PtSymbolBlock module = JniUtils.loadModule(manager, file.toAbsolutePath(), true, new String[0],
                new String[0], !inferenceMode);
            return new LoadedModule(manager, module);
        }
        catch (final RuntimeException e)
        {
            manager.close();
            throw e;
        }
    }

    @Override
    public void close()
    {
        try
        {
            module.close();
        }
        finally
        {
            manager.close();
        }
    }
}
